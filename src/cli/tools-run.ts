import { readArguments } from '../tools/argument-limits.ts';
import { setField } from '../schema/schema-node.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { CLI_TEXT, interfaceLanguage } from './cli-text.ts';
import { listenForInterrupts } from './interrupt.ts';
import { loadTools, type GlobalOptions } from './load-tools.ts';
import { UsageError } from './usage-error.ts';

export interface RunOptions extends GlobalOptions {
  params?: string;
  lang?: Language;
  timeout?: number;
  json?: boolean;
}

/** `riverse tools run NAME key=value …`: runs one tool as the assistant would; exit 0 on success, 1 on failure. */
export async function toolsRun(name: string, pairs: string[], options: RunOptions): Promise<number> {
  const params = { ...parseParamsJson(options.params), ...parsePairs(pairs) };
  // Listening from the start: Ctrl-C while the tools load ends the command at once.
  const interrupts = listenForInterrupts({ stillStopping: CLI_TEXT[interfaceLanguage(options.lang)].stillStopping });
  let started = 0;
  const { registry, result } = await (async () => {
    const { registry } = await loadTools(options);
    started = performance.now();
    const result = await registry.execute(name, params, {
      signal: interrupts.begin(),
      sessionId: 'cli',
      ...(options.lang === undefined ? {} : { language: options.lang }),
      ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
    });
    return { registry, result };
  })().finally(() => interrupts.close());
  if (options.json === true) {
    // What the tool received: coerced and with its defaults (the check is the one the call went
    // through). Arguments it refused are shown as given, unless their shape keeps them from even
    // printing (nested past JSON.stringify's stack).
    const checked = registry.get(name)?.checkParams(params);
    const shown = checked?.ok === true ? checked.params : readArguments(params).ok ? params : '(not shown: too large or too deeply nested)';
    process.stdout.write(`${JSON.stringify({ tool: name, params: shown, ...result, durationMs: Math.round(performance.now() - started) }, null, 2)}\n`);
  } else if (result.success) {
    process.stdout.write(result.data.endsWith('\n') ? result.data : `${result.data}\n`);
  } else {
    process.stderr.write(`error: ${result.error ?? 'the tool failed'}\n`);
  }
  return result.success ? 0 : 1;
}

function parseParamsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--params is not valid JSON: ${(error as Error).message}. Example: --params '{"city": "Tokyo"}'`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--params must be a JSON object, e.g. \'{"city": "Tokyo"}\'');
  return value as Record<string, unknown>;
}

/** `key=value` words; values stay strings and are coerced by the tool's parameter types. */
function parsePairs(pairs: string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`"${pair}" is not a parameter: write key=value, e.g. city=Tokyo`);
    setField(params, pair.slice(0, at), pair.slice(at + 1));
  }
  return params;
}
