// The refusals both transports give (stdio in stdio-transport.ts, /mcp in http-endpoint.ts) for a
// message Riverse will not read, worded once so that a client hears the same thing on either.

/** JSON-RPC's "Invalid Request". */
export const INVALID_REQUEST = -32600;
/** JSON-RPC's "Parse error". */
export const PARSE_ERROR = -32700;

/** A JSON array of messages: MCP dropped batching in its 2025-06-18 revision. */
export const BATCH_REFUSED =
  'JSON-RPC batches are not accepted: MCP removed batching in its 2025-06-18 revision. Send each request as a message of its own (on stdio, one per line).';

/** A stdio line over the read bound (the SDK's 10 MiB): refused, and the session goes on. */
export function lineTooLong(bytes: number, limit: number): string {
  return `Request too large: its line was ${bytes} bytes, and riverse mcp reads lines of at most ${limit} bytes (the MCP SDK's stdio buffer). It was not read; the session goes on. Send less in one request (large tool arguments are the usual cause).`;
}

/** A stdio line that is not JSON. */
export function lineNotJson(error: string): string {
  return `Parse error: a line on stdin is not JSON (${error}). Each line must be one JSON-RPC message.`;
}

/** JSON that is not a JSON-RPC 2.0 message. */
export function notJsonRpc(problem: string): string {
  return `Invalid Request: the line is JSON but not a JSON-RPC 2.0 message (${problem}).`;
}
