import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { requestTraceContext } from '../trace-headers.ts';
import { TOOLS_SETTINGS } from '../../tools/app-config.ts';
import { explainInvalidParams } from '../../tool-runtime/check-params.ts';
import type { Language } from '../../core/language.ts';
import type { ToolRegistry } from '../../tool-runtime/tool-registry.ts';
import type { ToolResult } from '../../tools/tool-result.ts';
import { partsAsJson } from '../../tools/result-content.ts';
import { ApiError } from '../api-error.ts';
import { readJsonObject } from '../read-json.ts';
import { requestLanguage } from '../request-language.ts';
import { failureIn } from '../../tool-runtime/failure-words.ts';
import type { ServerContext } from '../server-context.ts';
import { toolCatalog, toolView, type ViewOptions } from './tool-view.ts';

/**
 * `/api/tools`: every tool with where it comes from, whether it can run and why not; switching one
 * on or off (kept in the store, over riverse.yaml's entry); running one by hand, exactly as a model's call runs.
 */
export function toolRoutes(context: ServerContext): Hono {
  const routes = new Hono();
  const viewOptions = (language: Language): ViewOptions => ({
    config: context.config.config,
    baseDir: context.config.baseDir,
    language,
  });
  const notFound = (registry: ToolRegistry, name: string, language: Language) =>
    new ApiError(404, 'tool-not-found', registry.unknownToolMessage(name, language));

  routes.get('/tools', (c) => c.json(toolCatalog(context.tools.current, viewOptions(requestLanguage(c)))));

  routes.get('/tools/:name', (c) => {
    const language = requestLanguage(c);
    const registry = context.tools.current;
    const view = toolView(registry, c.req.param('name'), viewOptions(language));
    if (view === undefined) throw notFound(registry, c.req.param('name'), language);
    return c.json(view);
  });

  routes.put('/tools/:name/enabled', async (c) => {
    const language = requestLanguage(c);
    const name = c.req.param('name');
    const body = await readJsonObject(c);
    if (typeof body.enabled !== 'boolean')
      throw new ApiError(400, 'invalid-request', '"enabled" must be true or false', 'enabled');
    if (context.tools.current.find(name) === undefined) throw notFound(context.tools.current, name, language);
    if ((TOOLS_SETTINGS as readonly string[]).includes(name)) {
      throw new ApiError(
        409,
        'tool-name-reserved',
        `A tool called "${name}" cannot be switched: tools.${name} is a setting of every tool in riverse.yaml. Rename the tool.`,
      );
    }
    // Kept in the store (shared by replicas), not in riverse.yaml: the file's entry stays its default.
    await context.toolSwitches.set(name, body.enabled);
    const view = toolView(context.tools.current, name, viewOptions(language));
    if (view === undefined) throw notFound(context.tools.current, name, language); // its file went away meanwhile
    return c.json(view);
  });

  routes.post('/tools/:name/run', async (c) => {
    const language = requestLanguage(c);
    const name = c.req.param('name');
    const body = await readJsonObject(c);
    const params = body.params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      throw new ApiError(400, 'invalid-request', '"params" must be a JSON object of the tool\'s parameters', 'params');
    const registry = context.tools.current;
    const found = registry.find(name);
    if (found === undefined) throw notFound(registry, name, language);
    if (!found.available)
      throw new ApiError(
        409,
        'tool-unavailable',
        registry.unavailableMessage(name, language) ?? `${name} is unavailable.`,
      );
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const result = await registry.execute(name, params, { signal: c.req.raw.signal, sessionId: 'dashboard', language });
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    const error = result.success
      ? undefined
      : failureText(result, registry, name, params as Record<string, unknown>, language);
    // Traced as a model's call is, so that the traces page shows it (and exported, in the caller's trace if it sent one).
    const { traceContext } = requestTraceContext(c);
    const trace = await context.store.recordHandRun(
      {
        turnId: randomUUID(),
        callId: randomUUID(),
        tool: name,
        params,
        success: result.success,
        data: result.data,
        ...(error === undefined ? {} : { error }),
        ...(result.code === undefined ? {} : { code: result.code }),
        durationMs,
        startedAt,
      },
      'api',
      result.content,
      traceContext,
    );
    context.telemetry?.export(trace, traceContext === undefined ? {} : { parent: traceContext });
    return c.json({
      ...result,
      // JSON has no bytes: a part's are base64 text, as MCP writes them.
      ...(result.content === undefined ? {} : { content: partsAsJson(result.content) }),
      ...(result.success ? {} : { error }),
      durationMs,
    });
  });

  return routes;
}

/**
 * Riverse's words in the person's language (refused arguments, a throw, a result that is not one; a
 * model gets them in English); a tool's own error as it wrote it.
 */
function failureText(
  result: ToolResult,
  registry: ToolRegistry,
  name: string,
  params: Record<string, unknown>,
  language: Language,
): string | undefined {
  if (result.code !== 'invalid-params') return failureIn(result, language) ?? result.error;
  const entry = registry.get(name);
  const checked = entry?.checkParams(params);
  return entry !== undefined && checked?.ok === false
    ? explainInvalidParams(entry.manifest, checked.problems, language)
    : result.error;
}
