import { createHash } from 'node:crypto';

/** The longest name providers take (OpenAI, Anthropic). */
export const MAX_TOOL_NAME = 64;
const SEPARATOR = '__';

/** A short, stable hash of a server's tool: the same server and tool get the same suffix on every machine. */
function suffix(server: string, tool: string, salt: number): string {
  return createHash('sha256').update(`${server}\0${tool}\0${salt}`).digest('hex').slice(0, 6);
}

/** Letters, digits, `_` and `-` only: what every provider takes in a tool name. */
function clean(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/**
 * The registry name of a server's tool: `<server>__<tool>`. When that is too long for providers,
 * has characters they refuse (which are replaced) or is taken already, it is cut to fit and ends in
 * `_` and a short hash of the original names, so two tools never share a name and a tool keeps its
 * name from one listing to the next.
 */
export function registryToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const raw = `${server}${SEPARATOR}${tool}`;
  const plain = clean(raw);
  if (plain === raw && plain.length <= MAX_TOOL_NAME && !taken.has(plain)) return plain;
  for (let salt = 0; ; salt++) {
    const end = `_${suffix(server, tool, salt)}`;
    const name = `${plain.slice(0, MAX_TOOL_NAME - end.length)}${end}`;
    if (!taken.has(name)) return name;
  }
}
