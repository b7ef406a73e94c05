import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** JSON-RPC's "Internal error". */
const INTERNAL_ERROR = -32603;

type Part = { type: string; text?: string; [key: string]: unknown };

/**
 * A message as it may go out on a line of at most `limit` bytes: itself when it fits; a tool result
 * that does not is cut — its longest texts shortened from the end, parts that cannot be shortened
 * (images, audio, resources, structured content) left out — with a text part saying so at its end;
 * any other response that does not fit becomes an error for the same id. The client's SDK closes
 * the connection on a longer line, so a cut answer is what keeps the session.
 * `undefined` for a notification that does not fit (it is dropped).
 */
export function cutToFit(message: JSONRPCMessage, limit: number): string | undefined {
  const line = `${JSON.stringify(message)}\n`;
  const size = Buffer.byteLength(line);
  if (size <= limit) return line;
  if (!('id' in message)) return undefined;
  const result = 'result' in message ? (message.result as Record<string, unknown>) : undefined;
  if (result !== undefined && Array.isArray(result.content)) {
    const cut = cutResult(message, result, size, limit);
    if (cut !== undefined) return cut;
  }
  return `${JSON.stringify({
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: INTERNAL_ERROR,
      message: `The answer was ${size} bytes, over the ${limit} bytes one stdio message may carry (an MCP client's read buffer), and it could not be cut to fit; ask for less at a time.`,
    },
  })}\n`;
}

function cutResult(
  message: JSONRPCMessage,
  result: Record<string, unknown>,
  size: number,
  limit: number,
): string | undefined {
  const marker = (left: number): Part => ({
    type: 'text',
    text: `[Cut by Riverse: this result was ${size} bytes, over the ${limit} bytes one stdio message may carry${left > 0 ? `; ${left} part${left === 1 ? '' : 's'} that could not be shortened (images, audio, resources or structured content) left out` : ''}. What is above is its beginning.]`,
  });
  const content = (result.content as Part[]).map((part) => ({ ...part }));
  const { structuredContent: _structured, ...rest } = result;
  let left = result.structuredContent === undefined ? 0 : 1;
  const render = () => `${JSON.stringify({ ...message, result: { ...rest, content: [...content, marker(left)] } })}\n`;
  // Biggest part first; a few rounds at most, since each cut takes about the overflow.
  for (let round = 0; round < content.length + 8; round++) {
    const line = render();
    const over = Buffer.byteLength(line) - limit;
    if (over <= 0) return line;
    const index = largest(content);
    if (index === -1) return undefined;
    const part = content[index]!;
    const text = part.type === 'text' && typeof part.text === 'string' ? part.text : undefined;
    const bytes = text === undefined ? 0 : Buffer.byteLength(JSON.stringify(text));
    if (text !== undefined && bytes > over + 64) {
      // Characters kept in proportion to the bytes that may stay; a text denser at its end is cut again.
      let keep = Math.floor((text.length * (bytes - over - 64)) / bytes);
      if (keep > 0 && /[\uD800-\uDBFF]/.test(text[keep - 1]!)) keep--;
      part.text = text.slice(0, keep);
    } else {
      content.splice(index, 1);
      if (text === undefined) left++;
    }
  }
  return undefined;
}

function largest(content: readonly Part[]): number {
  let index = -1;
  let size = -1;
  content.forEach((part, at) => {
    const length = JSON.stringify(part).length;
    if (length > size) [index, size] = [at, length];
  });
  return index;
}
