// A tool's thrown error crosses from its host into Riverse as plain data, and is rebuilt there with
// the same class name, message and stack, so that a failure points at the tool file's own line.
import { originalStack } from '../typescript-hooks.ts';
import type { ThrownError } from './worker-messages.ts';

const MAX_MESSAGE_CHARS = 4_000;
const MAX_STACK_CHARS = 8_000;

/** Built-in error classes rebuilt as themselves, so `instanceof TypeError` still holds. */
const BUILT_IN: Record<string, ErrorConstructor> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

/** In the tool's host: what was thrown, as data (sizes capped). */
export function describeThrown(error: unknown): ThrownError {
  if (!(error instanceof Error)) return { name: 'Error', message: cap(String(error), MAX_MESSAGE_CHARS) };
  const name = typeof error.name === 'string' && error.name !== '' ? error.name : (error.constructor?.name ?? 'Error');
  const described: ThrownError = { name, message: cap(String(error.message), MAX_MESSAGE_CHARS) };
  let stack: unknown;
  try {
    stack = error.stack; // a getter of the tool's may throw
  } catch {
    stack = undefined;
  }
  if (typeof stack === 'string') described.stack = cap(cleanStack(originalStack(stack)), MAX_STACK_CHARS);
  return described;
}

/** In Riverse: the error rebuilt; its stack is the tool's own (no frames of Riverse's host code). */
export function reviveThrown(thrown: ThrownError): Error {
  const builtIn = Object.hasOwn(BUILT_IN, thrown.name) ? BUILT_IN[thrown.name]! : undefined;
  const message = cap(thrown.message, MAX_MESSAGE_CHARS);
  const error = new (builtIn ?? Error)(message);
  if (builtIn === undefined) error.name = cap(thrown.name, 200);
  error.stack = thrown.stack === undefined ? `${error.name}: ${message}` : cap(thrown.stack, MAX_STACK_CHARS);
  return error;
}

/**
 * Drops the `?v=N` a reload adds to tool file URLs (so paths match the file on disk) and the
 * frames of Node's internals and of Riverse's host code, which say nothing about the tool.
 */
function cleanStack(stack: string): string {
  return stack
    .split('\n')
    .filter((line) => !/^\s+at .*(node:internal|\/isolation\/tool-worker\.[mc]?[jt]s)/.test(line))
    .map((line) => line.replace(/(file:\/\/[^\s?)]+)\?v=\d+/g, '$1'))
    .join('\n');
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
