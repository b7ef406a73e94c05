// A stateless client of the 2026-07-28 revision, request by request (raw JSON-RPC), for the tests
// of /mcp: every request carries its own capabilities (elicitation and the tasks extension).

const REVISION = '2026-07-28';
/** The `_meta` every request of such a client carries (its revision, name and capabilities). */
export const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: { form: {} },
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

/** POSTs one request to `url` (an /mcp endpoint) with the revision's headers; the response as it comes (a stream for a listen). */
export function postStateless(url: string, method: string, params: Record<string, unknown>, signal?: AbortSignal) {
  const name = (params.name ?? params.taskId) as string | undefined;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: `${method}-1`, method, params: { ...params, _meta: STATELESS_META } }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** One request and its JSON-RPC answer (the body's JSON, or an event stream's data line). */
export async function statelessRpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ result?: Record<string, any>; error?: { code: number; message: string } }> {
  const text = await (await postStateless(url, method, params)).text();
  const json = text.startsWith('{')
    ? text
    : (text.split('\n').find((line) => line.startsWith('data: ')) ?? '').slice(6);
  return JSON.parse(json);
}

/** The JSON-RPC messages of an event stream's body (a listen), as they come. */
export async function* streamedMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, any>> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line.startsWith('data:')) yield JSON.parse(line.slice(5));
  }
}
