// What a host sends is checked again here: tool code can reach its channel (a worker's parent
// port, a process's fd 3) and forge messages, so Riverse trusts their shape no more than their size.
import { renderPhrase, type Phrase } from '../../core/phrase.ts';
import { checkPartReference, checkQuestion, type AskQuestion } from '../../tools/tool-context.ts';
import { checkSampleRequest, type SampleRequest } from '../../tools/sample-request.ts';
import { checkRootsOptions } from '../../tools/client-roots.ts';
import { checkLog, checkProgress, type LogReport, type ProgressReport } from '../../tools/call-report.ts';
import { checkToolResult, type ToolResult } from '../../tools/tool-result.ts';
import { validateManifest } from '../validate-manifest.ts';
import type { FileInfo, ThrownError, WorkerResult } from './worker-messages.ts';

const DIAGNOSTIC_KEYS = ['severity', 'code', 'file', 'message'] as const;

/** A loader's report for `file`, or why it cannot be used. */
export function checkFileReport(info: unknown, file: string): FileInfo | string {
  if (!isRecord(info) || info.file !== file || !Array.isArray(info.tools) || !Array.isArray(info.diagnostics))
    return 'its loader sent a malformed report';
  for (const tool of info.tools) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || tool.file !== file || typeof tool.available !== 'boolean')
      return 'its loader sent a malformed report';
    if (tool.reason !== undefined && typeof tool.reason !== 'string') return 'its loader sent a malformed report';
    if (
      tool.reasonTexts !== undefined &&
      !(isRecord(tool.reasonTexts) && Object.values(tool.reasonTexts).every((text) => typeof text === 'string'))
    )
      return 'its loader sent a malformed report';
    const problems = validateManifest(tool.manifest).filter((problem) => problem.severity === 'error');
    if (problems.length > 0 || (tool.manifest as { name?: unknown }).name !== tool.name)
      return 'its loader sent a manifest that does not pass the manifest check';
  }
  if (
    info.dependencies !== undefined &&
    !(Array.isArray(info.dependencies) && info.dependencies.every((path) => typeof path === 'string'))
  )
    return 'its loader sent a malformed report';
  if (info.javascript !== undefined && typeof info.javascript !== 'string') return 'its loader sent a malformed report';
  if (info.relocatable !== undefined && info.relocatable !== true) return 'its loader sent a malformed report';
  if (info.loadMs !== undefined && !(typeof info.loadMs === 'number' && info.loadMs >= 0))
    return 'its loader sent a malformed report';
  const environment = info.environment;
  if (
    environment !== undefined &&
    !(
      isRecord(environment) &&
      typeof environment.listed === 'boolean' &&
      Array.isArray(environment.names) &&
      environment.names.every((name) => typeof name === 'string')
    )
  )
    return 'its loader sent a malformed report';
  for (const diagnostic of info.diagnostics) {
    if (!isRecord(diagnostic) || DIAGNOSTIC_KEYS.some((key) => typeof diagnostic[key] !== 'string'))
      return 'its loader sent a malformed report';
  }
  return info as unknown as FileInfo;
}

/** A call's outcome as the host reported it, rebuilt from checked parts. */
export function checkCallReport(result: unknown): WorkerResult {
  if (isRecord(result) && 'threw' in result) return { threw: checkThrown(result.threw) };
  if (isRecord(result) && 'invalid' in result) {
    // Its phrase only if this copy of Riverse can say it: a forged one is dropped, the English stays.
    const said = result.said as Phrase | undefined;
    return {
      invalid: String(result.invalid),
      ...(said !== undefined && renderPhrase(said, 'en') !== undefined ? { said } : {}),
    };
  }
  const checked = checkToolResult(result);
  return typeof checked === 'string' ? { invalid: checked } : (checked satisfies ToolResult);
}

/** A question a host sends for one of its calls (`context.ask`), or undefined when it is not one. */
export function checkAskReport(message: unknown): ({ id: number; seq: number } & AskQuestion) | undefined {
  if (!isRecord(message) || !Number.isInteger(message.id) || !Number.isInteger(message.seq)) return undefined;
  const { choices, fields, required, key, timeoutMs } = message;
  const question = checkQuestion(
    message.question,
    Object.fromEntries(
      Object.entries({ choices, fields, required, key, timeoutMs }).filter(([, v]) => v !== undefined),
    ),
  );
  return typeof question === 'string'
    ? undefined
    : { id: message.id as number, seq: message.seq as number, ...question };
}

/** A request a host sends for one of its calls (`context.sample`, `context.roots`), or undefined when it is not one. */
export function checkNeedReport(
  message: unknown,
):
  | { type: 'sample'; id: number; seq: number; request: SampleRequest }
  | { type: 'roots'; id: number; seq: number; options: { key?: string; timeoutMs?: number } }
  | undefined {
  if (!isRecord(message) || !Number.isInteger(message.id) || !Number.isInteger(message.seq)) return undefined;
  const id = message.id as number;
  const seq = message.seq as number;
  if (message.type === 'sample') {
    const request = checkSampleRequest(message.request);
    return typeof request === 'string' ? undefined : { type: 'sample', id, seq, request };
  }
  if (message.type === 'roots') {
    const options = checkRootsOptions(message.options);
    return typeof options === 'string' ? undefined : { type: 'roots', id, seq, options };
  }
  return undefined;
}

/** A part request a host sends for one of its calls (`context.resultPart`), or undefined when it is not one. */
export function checkPartRequest(
  message: unknown,
): { id: number; seq: number; callId: string; index?: number } | undefined {
  if (!isRecord(message) || !Number.isInteger(message.id) || !Number.isInteger(message.seq)) return undefined;
  const reference = checkPartReference(message.callId, message.index);
  return typeof reference === 'string'
    ? undefined
    : { id: message.id as number, seq: message.seq as number, ...reference };
}

/** A progress report or log line a host sends for one of its calls, or undefined when it is not one. */
export function checkReport(
  message: unknown,
): ({ type: 'progress'; id: number } & ProgressReport) | ({ type: 'log'; id: number } & LogReport) | undefined {
  if (!isRecord(message) || !Number.isInteger(message.id)) return undefined;
  const id = message.id as number;
  if (message.type === 'progress') {
    const report = checkProgress(message.progress, message.total, message.message);
    return typeof report === 'string' ? undefined : { type: 'progress', id, ...report };
  }
  if (message.type === 'log') {
    const report = checkLog(message.level, message.message);
    return typeof report === 'string' ? undefined : { type: 'log', id, ...report };
  }
  return undefined;
}

function checkThrown(thrown: unknown): ThrownError {
  if (!isRecord(thrown)) return { name: 'Error', message: String(thrown) };
  return {
    name: String(thrown.name),
    message: String(thrown.message),
    ...(typeof thrown.stack === 'string' ? { stack: thrown.stack } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
