import { loadCliConfig } from '../cli-config.ts';
import { cliDataDir } from '../data-folder.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { openStore } from '../../store/open-store.ts';
import { UsageError } from '../usage-error.ts';
import { renderTrace } from './render-trace.ts';
import { TRACE_TEXT } from './trace-text.ts';

export interface TraceOptions extends GlobalOptions {
  json?: boolean;
}

/** `riverse trace [last|ID]`: a turn's trace as a tree (or, `--json`, as the API gives it); exit 0, or 2 when there is none. */
export async function traceCommand(target: string | undefined, options: TraceOptions): Promise<number> {
  const text = TRACE_TEXT[options.language];
  const loaded = await loadCliConfig(options.config);
  const dataDir = cliDataDir(loaded);
  const store = await openStore(dataDir, loaded.config, { language: options.language });
  try {
    const id = target ?? 'last';
    const trace = id === 'last' ? await store.turnTraces.last() : await store.turnTraces.get(id);
    if (trace === undefined) throw new UsageError(id === 'last' ? text.none(dataDir) : text.notFound(id, dataDir));
    process.stdout.write(options.json === true ? `${JSON.stringify(trace, null, 2)}\n` : renderTrace(trace, text));
    return 0;
  } finally {
    await store.close();
  }
}
