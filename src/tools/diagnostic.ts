import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Something wrong (or worth fixing) with a tool file, found while loading it. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  code: DiagnosticCode;
  /** Absolute path of the file (or folder) concerned. */
  file: string;
  line?: number;
  column?: number;
  /** The tool concerned, when known. */
  tool?: string;
  /** What is wrong. */
  message: string;
  /** What to do about it. */
  hint?: string;
}

export type DiagnosticCode =
  | 'folder-missing'
  | 'syntax-error'
  | 'import-failed'
  | 'no-tool-class'
  | 'constructor-threw'
  | 'manifest-threw'
  | 'invalid-manifest'
  | 'manifest-warning'
  | 'is-available-threw'
  | 'duplicate-name'
  | 'load-timeout'
  | 'load-crashed'
  | 'type-error'
  | 'type-check-failed'
  | 'unknown-tool-section';

/** `agent/tools/x.ts:12:5: error [syntax-error] message` and the hint on the next line. */
export function formatDiagnostic(diagnostic: Diagnostic, cwd = process.cwd()): string {
  const file = relative(cwd, diagnostic.file) || diagnostic.file;
  const place = diagnostic.line === undefined ? file : `${file}:${diagnostic.line}${diagnostic.column === undefined ? '' : `:${diagnostic.column}`}`;
  const head = `${place}: ${diagnostic.severity} [${diagnostic.code}]${diagnostic.tool === undefined ? '' : ` ${diagnostic.tool}:`} ${diagnostic.message}`;
  return diagnostic.hint === undefined ? head : `${head}\n  → ${diagnostic.hint}`;
}

/**
 * Where in `file` an error arose: the transformer's syntax-error position, or the first stack
 * frame in that file (source-mapped to the TypeScript line).
 */
export function errorLocation(error: unknown, file: string): { line?: number; column?: number } {
  if (typeof error !== 'object' || error === null) return {};
  const { startLine, startColumn, stack } = error as { startLine?: unknown; startColumn?: unknown; stack?: unknown };
  if (typeof startLine === 'number') return { line: startLine, ...(typeof startColumn === 'number' ? { column: startColumn + 1 } : {}) };
  if (typeof stack !== 'string') return {};
  const frame = stackFrames(stack).find((candidate) => candidate.path === file);
  return frame === undefined ? {} : { line: frame.line, ...(frame.column === undefined ? {} : { column: frame.column }) };
}

/** The file frames of a stack, top first: path (without a `?v=N` query), line and column. */
export function stackFrames(stack: string): Array<{ path: string; line: number; column?: number }> {
  // A path starts the stack, a line, or follows "(": not "/process/…" inside "node:internal/process/…".
  return [...stack.matchAll(/(?<![^\s(])(file:\/\/[^\s():]+|\/[^\s():]+)(?:\?[^\s():]*)?:(\d+)(?::(\d+))?/g)].map((match) => ({
    path: match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!,
    line: Number(match[2]),
    ...(match[3] === undefined ? {} : { column: Number(match[3]) }),
  }));
}

/** The error's message without the stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return String(error);
}
