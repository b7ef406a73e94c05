import type { AppConfig } from '../app-config.ts';
import type { Diagnostic } from '../diagnostic.ts';
import type { ToolInfo } from '../load-tool-file.ts';
import type { Language } from '../tool-manifest.ts';
import type { ToolResult } from '../tool-result.ts';

/** What a tool worker is started with. */
export type WorkerData =
  | { role: 'load'; config: AppConfig }
  | { role: 'execute'; config: AppConfig; file: string; version: number; source: string };

export interface FileInfo {
  file: string;
  tools: ToolInfo[];
  diagnostics: Diagnostic[];
}

/** Main thread → worker. */
export type ToWorker =
  | { type: 'load'; file: string; version: number; source: string }
  | { type: 'call'; id: number; tool: string; params: Record<string, unknown>; sessionId: string; language: Language }
  /** `reason`: the name and message of the caller's abort reason (a TimeoutError or AbortError), for the tool's signal. */
  | { type: 'abort'; id: number; reason?: { name: string; message: string } };

/** Worker → main thread. */
export type FromWorker =
  | { type: 'loaded'; info: FileInfo }
  | { type: 'ready'; tools: string[] }
  | { type: 'result'; id: number; result: WorkerResult };

/** A checked ToolResult, a value that is not one (why), or the message of what the tool threw. */
export type WorkerResult = ToolResult | { invalid: string } | { threw: string };
