import type { Phrase } from '../../core/phrase.ts';
import type { AppConfig } from '../../tools/app-config.ts';
import type { Diagnostic } from '../../core/diagnostic.ts';
import type { ToolInfo } from '../load-tool-file.ts';
import type { Language } from '../../core/language.ts';
import type { AskAnswer, AskQuestion } from '../../tools/tool-context.ts';
import type { SampleRequest } from '../../tools/sample-request.ts';
import type { LogReport, ProgressReport } from '../../tools/call-report.ts';
import type { ToolResult } from '../../tools/tool-result.ts';
import type { ContentPart } from '../../tools/content-part.ts';

/** What a tool host (thread or process) is started with. */
export type WorkerData = (
  | { role: 'load'; config: AppConfig }
  | { role: 'execute'; config: AppConfig; file: string; version: number; source: string }
) & {
  /** The Riverse process, which a tool may not signal. */
  hostPid: number;
  /** Longest `data` and `error` a result may carry out of the host; the rest is cut there. */
  maxResultChars: number;
  /** The most a result's parts and `structured` may hold in all, in bytes; the rest is cut there. */
  maxResultBytes?: number;
};

export interface FileInfo {
  file: string;
  tools: ToolInfo[];
  diagnostics: Diagnostic[];
  /** The project files it imported, directly or not (its helpers): what its load depended on besides its own text. */
  dependencies?: string[];
  /** The CPU time its load took in the loader (import, constructors, manifests, isAvailable), in ms. */
  loadMs?: number;
  /** The environment variables its code read while it loaded (`listed`: it went through them all). */
  environment?: { names: string[]; listed: boolean };
  /** The file as JavaScript (its types stripped), when a tool of it is to run in Riverse's own process. */
  javascript?: string;
  /** It imported nothing by a specifier read from where it is (`importsByItsLocation`): its load may be reused at another path (030). */
  relocatable?: boolean;
}

/** Riverse → tool host. */
export type ToWorker =
  /** `check`: compare what files share after this one (else only when asked, with `check`). `seq`: the load's number in this loader. */
  | { type: 'load'; seq: number; file: string; version: number; source: string; check: boolean }
  /** A loader: skip these loads if not started yet (Riverse gave them to another loader). */
  | { type: 'drop'; seqs: number[] }
  /** A loader: compare what files share now with what it was before the first file. */
  | { type: 'check' }
  | { type: 'call'; id: number; tool: string; params: Record<string, unknown>; sessionId: string; language: Language }
  /** `reason`: the name and message of the caller's abort reason (a TimeoutError or AbortError), for the tool's signal. */
  | { type: 'abort'; id: number; reason?: { name: string; message: string } }
  /** The person's answer to question `seq` of call `id` (`context.ask`). */
  | { type: 'answer'; id: number; seq: number; answer: AskAnswer }
  /** The reply to request `seq` of call `id` (`context.sample`, `context.roots`): its value, or why there is none. */
  | { type: 'reply'; id: number; seq: number; value?: unknown; failed?: { name: string; message: string } }
  /** The part request `seq` of call `id` asked for (`context.resultPart`); none when there is none. */
  | { type: 'part-answer'; id: number; seq: number; part?: ContentPart };

/** Tool host → Riverse. */
export type FromWorker =
  /** A child process, before any tool code: its resident memory then, from which its memory limit counts. */
  | { type: 'started'; rss: number }
  /** A child process, about to end: what its code threw that nothing caught. */
  | { type: 'uncaught'; error: ThrownError }
  /** `changed`: what of the loader's shared state (built-ins, globals) the file's code changed; the loader is not reused. */
  | { type: 'loaded'; seq: number; info: FileInfo; changed?: string[] }
  /** The answer to `check`. */
  | { type: 'checked'; changed?: string[] }
  | { type: 'ready'; tools: string[] }
  | { type: 'result'; id: number; result: WorkerResult }
  /** Call `id`'s tool asks the person something (`context.ask`); Riverse answers with `answer` and the same `seq`. */
  | ({ type: 'ask'; id: number; seq: number } & AskQuestion)
  /** Call `id`'s tool asks a model (`context.sample`); Riverse answers with `reply` and the same `seq`. */
  | { type: 'sample'; id: number; seq: number; request: SampleRequest }
  /** Call `id`'s tool asks for its folders (`context.roots`); Riverse answers with `reply` and the same `seq`. */
  | { type: 'roots'; id: number; seq: number; options: { key?: string; timeoutMs?: number } }
  /** Call `id`'s tool asks for a part of an earlier call's result (`context.resultPart`); Riverse answers with `part-answer` and the same `seq`. */
  | { type: 'part'; id: number; seq: number; callId: string; index?: number }
  /** Call `id`'s tool says how far it is (`context.progress`), throttled in the host. */
  | ({ type: 'progress'; id: number } & ProgressReport)
  /** Call `id`'s tool logs a line (`context.log`), throttled in the host. */
  | ({ type: 'log'; id: number } & LogReport);

/** What a tool threw, as it crosses into Riverse: its class name, message and stack (tool frames, source-mapped). */
export interface ThrownError {
  name: string;
  message: string;
  stack?: string;
}

/** A checked ToolResult, a value that is not one (why), or what the tool threw. */
/** `invalid`: why the value is not a ToolResult, in English, and as a phrase for other languages. */
export type WorkerResult = ToolResult | { invalid: string; said?: Phrase } | { threw: ThrownError };
