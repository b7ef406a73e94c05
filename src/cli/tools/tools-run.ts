import { randomUUID } from 'node:crypto';
import type { LoadedConfig } from '../../config/load-config.ts';
import { openStore } from '../../store/open-store.ts';
import { traceRetention } from '../../store/store-settings.ts';
import { startTelemetry } from '../../telemetry/start-telemetry.ts';
import { TelemetrySettingError } from '../../telemetry/telemetry-settings.ts';
import type { TurnTrace } from '../../store/turn-trace.ts';
import { cliDataDir } from '../data-folder.ts';
import { readArguments } from '../../tool-runtime/argument-limits.ts';
import { explainInvalidParams, type ParamsCheck } from '../../tool-runtime/check-params.ts';
import { failureIn } from '../../tool-runtime/failure-words.ts';
import type { Language } from '../../core/language.ts';
import type { ToolRegistry } from '../../tool-runtime/tool-registry.ts';
import type { ToolResult } from '../../tools/tool-result.ts';
import type { ContentPart } from '../../tools/content-part.ts';
import { base64, byteLength, formatSize } from '../../tools/result-content.ts';
import { setField } from '../../schema/schema-node.ts';
import { CLI_TEXT } from '../cli-text.ts';
import { listenForInterrupts } from '../interrupt.ts';
import { loadTools, type GlobalOptions } from '../load-tools.ts';
import { TOOLS_TEXT, type ToolsText } from './tools-text.ts';
import { UsageError } from '../usage-error.ts';

export interface RunOptions extends GlobalOptions {
  params?: string;
  timeout?: number;
  json?: boolean;
}

/** `riverse tools run NAME key=value …`: runs one tool as the assistant would; exit 0 on success, 1 on failure. */
export async function toolsRun(name: string, pairs: string[], options: RunOptions): Promise<number> {
  const { language } = options;
  const text = TOOLS_TEXT[language];
  const params = { ...parseParamsJson(options.params, text), ...parsePairs(pairs, text) };
  // Listening from the start: Ctrl-C while the tools load ends the command at once.
  const interrupts = listenForInterrupts({ stillStopping: CLI_TEXT[language].stillStopping });
  let started = 0;
  let startedAt = '';
  const { registry, result, loaded } = await (async () => {
    const { registry, loaded } = await loadTools(options);
    started = performance.now();
    startedAt = new Date().toISOString();
    const result = await registry.execute(name, params, {
      signal: interrupts.begin(),
      sessionId: 'cli',
      language,
      ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
      // As they come, on stderr: stdout is the result alone (text, or with --json the JSON).
      ...(options.json === true
        ? {}
        : {
            onProgress: (report) =>
              process.stderr.write(`${text.progress(report.progress, report.total, report.message)}\n`),
            onLog: (report) => process.stderr.write(`${text.logLine(report.level, report.message)}\n`),
          }),
    });
    return { registry, result, loaded };
  })().finally(() => interrupts.close());
  const trace = await traceRun(
    loaded,
    name,
    params,
    result,
    { startedAt, durationMs: performance.now() - started },
    text,
  );
  if (trace !== undefined) await exportRun(loaded, trace, language);
  // The check the call went through: what the tool received (coerced, with its defaults), or why not.
  const checked = registry.get(name)?.checkParams(params);
  if (options.json === true) {
    // Arguments it refused are shown as given, unless their shape keeps them from even printing
    // (nested past JSON.stringify's stack).
    const shown = checked?.ok === true ? checked.params : readArguments(params).ok ? params : text.notShown;
    process.stdout.write(
      `${JSON.stringify({ tool: name, params: shown, ...result, durationMs: Math.round(performance.now() - started) }, bytesAsBase64, 2)}\n`,
    );
  } else if (result.success) {
    const lines = [result.data, ...partLines(result.content, text)].filter((line) => line !== '').join('\n');
    process.stdout.write(lines.endsWith('\n') || lines === '' ? lines : `${lines}\n`);
  } else {
    const error = failureText(result, name, registry, checked, language);
    process.stderr.write(`${text.error}${error}\n`);
  }
  return result.success ? 0 : 1;
}

/** Keeps the run as a trace by hand (`riverse trace`, `GET /api/traces/turns?byHand=true`); a store that fails is a note, not the run's failure. */
async function traceRun(
  loaded: LoadedConfig,
  tool: string,
  params: unknown,
  result: ToolResult,
  time: { startedAt: string; durationMs: number },
  text: ToolsText,
): Promise<TurnTrace | undefined> {
  try {
    const store = await openStore(cliDataDir(loaded), loaded.config, { traceRetention: traceRetention(loaded.config) });
    try {
      return await store.recordHandRun(
        {
          turnId: randomUUID(),
          callId: randomUUID(),
          tool,
          params,
          success: result.success,
          data: result.data ?? '',
          ...(result.error === undefined ? {} : { error: result.error }),
          ...(result.code === undefined ? {} : { code: result.code }),
          durationMs: Math.round(time.durationMs * 10) / 10,
          startedAt: time.startedAt,
        },
        'cli',
        result.content,
      );
    } finally {
      await store.close();
    }
  } catch (error) {
    process.stderr.write(`${text.runNotTraced(error instanceof Error ? error.message : String(error))}\n`);
    return undefined;
  }
}

/** With telemetry on (`telemetry:`, OTEL_*), the run is exported too; sent as the command ends (program.ts). */
async function exportRun(loaded: LoadedConfig, trace: TurnTrace, language: Language): Promise<void> {
  try {
    (await startTelemetry(loaded.config.telemetry, { language }))?.export(trace);
  } catch (error) {
    if (!(error instanceof TelemetrySettingError)) throw error;
    process.stderr.write(`${TOOLS_TEXT[language].error}${error.localized(language)}\n`);
  }
}

/**
 * Why the call failed: in the person's language where Riverse says it (a name that is not a tool,
 * a tool that is off, refused arguments, a throw, a result that is not one, a time limit); a tool's
 * own error in its own words.
 */
function failureText(
  result: ToolResult,
  name: string,
  registry: ToolRegistry,
  checked: ParamsCheck | undefined,
  language: Language,
): string {
  const entry = registry.get(name);
  switch (result.code) {
    case 'unknown-tool':
      return registry.unknownToolMessage(name, language);
    case 'unavailable':
      return registry.unavailableMessage(name, language) ?? result.error ?? '';
    case 'invalid-params':
      if (entry !== undefined && checked?.ok === false)
        return explainInvalidParams(entry.manifest, checked.problems, language);
  }
  return failureIn(result, language) ?? result.error ?? TOOLS_TEXT[language].toolFailed;
}

/** Bytes in a result (a part's Uint8Array) as base64 text, as MCP writes them. */
function bytesAsBase64(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? base64(value) : value;
}

/** A line per part that is not text (its text is `data` already, or the tool chose what `data` says). */
function partLines(content: readonly ContentPart[] | undefined, text: ToolsText): string[] {
  return (content ?? []).flatMap((part) => {
    switch (part.type) {
      case 'text':
        return [];
      case 'image':
      case 'audio':
        return [text.part(part.type, part.mimeType, formatSize(byteLength(part.data)))];
      default: {
        const what = `${part.uri}${part.mimeType === undefined ? '' : ` (${part.mimeType})`}`;
        const size = part.text !== undefined ? part.text.length : part.blob === undefined ? 0 : byteLength(part.blob);
        return [text.part('resource', what, formatSize(size))];
      }
    }
  });
}

function parseParamsJson(json: string | undefined, text: ToolsText): Record<string, unknown> {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new UsageError(text.paramsNotJson((error as Error).message));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(text.paramsNotObject);
  return value as Record<string, unknown>;
}

/** `key=value` words; values stay strings and are coerced by the tool's parameter types. */
function parsePairs(pairs: string[], text: ToolsText): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(text.notAParameter(pair));
    setField(params, pair.slice(0, at), pair.slice(at + 1));
  }
  return params;
}
