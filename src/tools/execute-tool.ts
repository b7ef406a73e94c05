import { toolSection } from './app-config.ts';
import { errorMessage } from './diagnostic.ts';
import type { RegisteredTool } from './registered-tool.ts';
import { createToolLogger, type ToolContext, type ToolLogger } from './tool-context.ts';
import type { Language } from './tool-manifest.ts';
import { checkToolResult, type ToolErrorCode, type ToolResult } from './tool-result.ts';

export interface ExecuteOptions {
  /** Cancels the call: the tool's own signal fires and a failed result comes back at once. */
  signal?: AbortSignal;
  sessionId?: string;
  language?: Language;
  /** Overrides the manifest's `timeoutMs` and the registry default. */
  timeoutMs?: number;
  logger?: ToolLogger;
}

export interface ExecutionLimits {
  defaultTimeoutMs: number;
  maxResultChars: number;
}

export const DEFAULT_LIMITS: ExecutionLimits = { defaultTimeoutMs: 30_000, maxResultChars: 20_000 };

/**
 * Runs one call. Never throws and never waits past the time limit or a cancellation: every fault
 * comes back as a failed ToolResult with a `code` and an error a model can act on.
 */
export async function executeTool(entry: RegisteredTool, params: unknown, options: ExecuteOptions = {}, limits = DEFAULT_LIMITS): Promise<ToolResult> {
  const checked = entry.checkParams(params);
  if (!checked.ok) return failure('invalid-params', checked.error);
  if (options.signal?.aborted) return failure('aborted', `Call to ${entry.name} was cancelled before it started.`);

  const timeoutMs = options.timeoutMs ?? entry.manifest.timeoutMs ?? limits.defaultTimeoutMs;
  const controller = new AbortController();
  const stopped = new Promise<ToolResult>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve(controller.signal.reason as ToolResult), { once: true });
  });
  const cancel = () => controller.abort(failure('aborted', `Call to ${entry.name} was cancelled.`));
  options.signal?.addEventListener('abort', cancel, { once: true });
  const timer = setTimeout(
    () => controller.abort(failure('timeout', `${entry.name} did not finish within ${formatDuration(timeoutMs)} and was stopped.`)),
    timeoutMs,
  );

  const context: ToolContext = {
    signal: controller.signal,
    sessionId: options.sessionId ?? 'default',
    language: options.language ?? 'en',
    logger: options.logger ?? createToolLogger(entry.name),
    config: toolSection(entry.tool.config, entry.name),
  };
  const run = (async (): Promise<ToolResult> => {
    try {
      const value = await entry.tool.execute(checked.params, context);
      const result = checkToolResult(value);
      return typeof result === 'string' ? failure('invalid-result', `${entry.name} ${result}. Expected { success: boolean, data: string, error?: string }; use ToolResult.ok(data) or ToolResult.fail(error).`) : result;
    } catch (error) {
      context.logger.debug('threw', error);
      return failure('threw', `${entry.name} failed: ${errorMessage(error)}`);
    }
  })();

  try {
    return truncate(await Promise.race([run, stopped]), limits.maxResultChars);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

export function failure(code: ToolErrorCode, error: string): ToolResult {
  return { success: false, data: '', error, code };
}

function truncate(result: ToolResult, maxChars: number): ToolResult {
  if (result.data.length <= maxChars) return result;
  const marker = `\n…[truncated: showing the first ${maxChars.toLocaleString('en')} of ${result.data.length.toLocaleString('en')} characters]`;
  return { ...result, data: result.data.slice(0, maxChars) + marker };
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
