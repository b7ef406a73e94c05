import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage, stackFrames } from './error-location.ts';

/** What a tool threw, with where in the tool's own code it was thrown. */
export interface ToolErrorOrigin {
  /** The error's class name (`TypeError`, a tool's own class…); `Error` for a thrown non-Error. */
  name: string;
  message: string;
  /** The first stack frame in the tool's own code (source-mapped by Node, as tool files load with source maps). */
  file?: string;
  line?: number;
  column?: number;
  /** The stack as thrown, when there is one. */
  stack?: string;
}

/** Riverse's own source: frames here are the caller of the tool, not the tool. */
const RIVERSE_SOURCE = fileURLToPath(new URL('..', import.meta.url));

/**
 * Where a tool's error comes from: its class name, message, and the first frame of the stack in
 * the tool's own code — the tool file or a helper of it, not Riverse, not Node and not a package
 * (a package that throws is reported at the tool's line that called it). The one place that turns
 * a thrown value into this, wherever the tool ran; plain data, so it can cross a thread.
 */
export function toolErrorOrigin(error: unknown): ToolErrorOrigin {
  const name = error instanceof Error ? error.name || 'Error' : 'Error';
  const stack =
    typeof (error as { stack?: unknown } | null)?.stack === 'string' ? (error as { stack: string }).stack : undefined;
  const frame = stack === undefined ? undefined : stackFrames(stack).find((candidate) => isToolCode(candidate.path));
  return {
    name,
    message: errorMessage(error),
    ...(frame === undefined
      ? {}
      : { file: frame.path, line: frame.line, ...(frame.column === undefined ? {} : { column: frame.column }) }),
    ...(stack === undefined ? {} : { stack }),
  };
}

/** `TypeError: x is not a function (at agent/tools/weather.ts:12:7)`; a plain Error's name is left out. */
export function describeToolError(origin: ToolErrorOrigin, cwd = process.cwd()): string {
  const { error, at } = toolErrorParts(origin, cwd);
  return at === undefined ? error : `${error} (at ${at})`;
}

/** The same in two parts, the error and where (`agent/tools/weather.ts:12:7`), for words around them in any language. */
export function toolErrorParts(origin: ToolErrorOrigin, cwd = process.cwd()): { error: string; at?: string } {
  const error = origin.name === 'Error' ? origin.message : `${origin.name}: ${origin.message}`;
  if (origin.file === undefined) return { error };
  const path = relative(cwd, origin.file);
  return {
    error,
    at: `${path === '' || path.startsWith('..') ? origin.file : path}:${origin.line}${origin.column === undefined ? '' : `:${origin.column}`}`,
  };
}

function isToolCode(path: string): boolean {
  return !isRiverseSource(path) && !path.includes(`${sep}node_modules${sep}`);
}

/** A frame of Riverse itself (or of Node): the caller of a tool's code, never its origin. */
export function isRiverseSource(path: string): boolean {
  return path.startsWith(RIVERSE_SOURCE) || path.startsWith('node:');
}
