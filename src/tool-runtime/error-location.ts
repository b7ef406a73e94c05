import { fileURLToPath } from 'node:url';
import { originalStack, STACK_POSITION } from './typescript-hooks.ts';

/**
 * Where in `file` an error arose: the transformer's syntax-error position, or the first stack
 * frame in that file (source-mapped to the TypeScript line).
 */
export function errorLocation(error: unknown, file: string): { line?: number; column?: number } {
  if (typeof error !== 'object' || error === null) return {};
  const { startLine, startColumn, stack } = error as { startLine?: unknown; startColumn?: unknown; stack?: unknown };
  if (typeof startLine === 'number')
    return { line: startLine, ...(typeof startColumn === 'number' ? { column: startColumn + 1 } : {}) };
  if (typeof stack !== 'string') return {};
  const frame = stackFrames(stack).find((candidate) => candidate.path === file);
  return frame === undefined
    ? {}
    : { line: frame.line, ...(frame.column === undefined ? {} : { column: frame.column }) };
}

/** The file frames of a stack, top first: path (without a `?v=N` query), line and column. */
export function stackFrames(stack: string): Array<{ path: string; line: number; column?: number }> {
  return [...originalStack(stack).matchAll(STACK_POSITION)].map((match) => ({
    path: match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!,
    line: Number(match[3]),
    ...(match[4] === undefined ? {} : { column: Number(match[4]) }),
  }));
}

/** The error's message without the stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string')
    return (error as { message: string }).message;
  return String(error);
}
