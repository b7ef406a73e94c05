// @ts-check
// Server-sent events read from a fetch body (EventSource cannot send an Authorization header).

/** The longest line kept while waiting for its end; a longer one ends the stream with an error. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * Calls `onEvent(type, data)` for every event of `body` (a ReadableStream of bytes), `data` parsed
 * as JSON when it is JSON. Comment lines (keep-alives) are skipped. Resolves when the stream ends.
 * @param {ReadableStream<Uint8Array<ArrayBuffer>>} body
 * @param {(type: string, data: unknown) => void} onEvent
 */
export async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let type = '';
  /** @type {string[]} */
  let data = [];
  const dispatch = () => {
    if (data.length > 0) onEvent(type || 'message', parseData(data.join('\n')));
    type = '';
    data = [];
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1);
        if (line === '') dispatch();
        else if (line.startsWith(':')) continue;
        else {
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') type = text;
          else if (field === 'data') data.push(text);
        }
      }
      if (buffer.length > MAX_LINE_CHARS) throw new Error(`an event line is longer than ${MAX_LINE_CHARS} characters`);
    }
    // An event the stream ended in the middle of is dropped, as the SSE standard says.
  } finally {
    reader.releaseLock();
  }
}

/** @param {string} text */
function parseData(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
