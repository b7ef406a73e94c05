import { randomUUID } from 'node:crypto';
import { ApiError } from '../api-error.ts';

const TITLE_CHARS = 40;

/**
 * A name for a chat started without one: its first words (as a title a person recognizes in the
 * session list), made unique with ` (2)`, ` (3)`…
 */
export async function newSessionName(
  message: string,
  taken: (name: string) => boolean | Promise<boolean>,
): Promise<string> {
  const words = message.replace(/\s+/g, ' ').trim();
  const chars = [...words];
  let base = chars.slice(0, TITLE_CHARS).join('');
  if (chars.length > TITLE_CHARS) base = `${base.includes(' ') ? base.replace(/\s+\S*$/, '') : base}…`;
  if (base === '' || base === '…') base = 'chat';
  for (let n = 1; n <= 100; n++) {
    const name = n === 1 ? base : `${base} (${n})`;
    if (!(await taken(name))) return name;
  }
  return `${base} (${randomUUID().slice(0, 8)})`;
}

const MAX_NAME_CHARS = 200;

/** A session name from a request: non-empty text, at most MAX_NAME_CHARS; else a 400 naming `field`. */
export function sessionName(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ApiError(400, 'invalid-request', `"${field}" must be a non-empty string`, field);
  if (value.length > MAX_NAME_CHARS)
    throw new ApiError(400, 'invalid-request', `"${field}" must be at most ${MAX_NAME_CHARS} characters`, field);
  return value;
}
