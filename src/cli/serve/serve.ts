import packageJson from '../../../package.json' with { type: 'json' };
import { serverOptions, isLoopbackHost } from '../../server/server-config.ts';
import { createServerContext } from '../../server/server-context.ts';
import { startServer } from '../../server/serve.ts';
import type { Language } from '../../core/language.ts';
import { createService } from '../create-assistant.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { SERVE_TEXT } from './serve-text.ts';
import { UsageError } from '../usage-error.ts';

export interface ServeOptions extends GlobalOptions {
  host?: string;
  port?: number;
  token?: string;
  lang?: Language;
}

/**
 * `riverse serve`: the dashboard, the API and the OpenAI-compatible endpoint, until Ctrl+C (or
 * SIGTERM). Starts without a model: the tools work, and the dashboard says how to connect one.
 */
export async function serve(options: ServeOptions): Promise<number> {
  const text = SERVE_TEXT[options.language];
  const service = await createService(options);
  const settings = serverOptions(service.config.config.server, {
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  const closeParts = async () => {
    await service.store.close();
    await service.tools.close();
  };
  if (!isLoopbackHost(settings.host) && settings.token === undefined) {
    await closeParts();
    throw new UsageError(text.needsToken(settings.host));
  }
  const context = createServerContext({
    tools: service.tools,
    store: service.store,
    config: { config: service.config.config, baseDir: service.config.baseDir, file: service.config.file },
    model: service.model,
    modelProblem: service.modelProblem,
    router: service.router,
    language: service.language,
    logLanguage: options.language,
    dataDir: service.dataDir,
    version: packageJson.version,
    telemetry: service.telemetry,
  });
  let server;
  try {
    server = await startServer(context, settings);
  } catch (error) {
    await closeParts();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(text.portInUse(settings.port));
    throw error;
  }
  // Listened for before the address is printed: whoever reads it may stop the service at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const fragment = settings.token === undefined ? '' : `#token=${encodeURIComponent(settings.token)}`;
  const registry = context.tools.current;
  const model = context.assistant()?.model;
  console.log(
    [
      text.serving(packageJson.version, server.url),
      text.dashboard(`${server.url}${fragment}`),
      text.openai(`${server.url}v1`),
      text.tools(registry.tools().length, registry.list().length),
      model !== undefined
        ? text.model(model.id)
        : service.modelProblem === undefined
          ? text.noModel
          : text.modelProblem(service.modelProblem.localized(options.language)),
      ...(service.telemetry === undefined ? [] : [text.telemetry(service.telemetry.destination)]),
      text.stop,
    ].join('\n'),
  );
  await stopped;
  await server.close();
  await closeParts();
  console.log(text.stopped);
  return 0;
}
