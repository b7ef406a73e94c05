// SEP-2243 (2026-07-28): a tool's parameter marked `x-mcp-header: Name` in its inputSchema is
// mirrored by the client into an `Mcp-Param-Name` header, so that gateways can route on it without
// reading the body. The server must check that the header is there and says what the body says.
// The SDK does this for its high-level McpServer only (and does not export it); Riverse serves
// through the low-level Server, so /mcp checks here, before the SDK's handler (decision 036).

/** The JSON-RPC code of a header that disagrees with the body (HeaderMismatch). */
export const HEADER_MISMATCH = -32020;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/s;

interface Declaration {
  header: string;
  path: string[];
  type: unknown;
}

/** The `x-mcp-header` declarations of a schema, through `properties` only (where SEP-2243 allows them). */
function declarations(schema: unknown, path: string[] = []): Declaration[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const { properties } = schema as { properties?: unknown };
  if (typeof properties !== 'object' || properties === null) return [];
  return Object.entries(properties).flatMap(([name, property]) => {
    if (typeof property !== 'object' || property === null) return [];
    const header = (property as Record<string, unknown>)['x-mcp-header'];
    return [
      ...(typeof header === 'string' && header !== ''
        ? [{ header, path: [...path, name], type: (property as { type?: unknown }).type }]
        : []),
      ...declarations(property, [...path, name]),
    ];
  });
}

/** A header's value: Base64 inside `=?base64?…?=` (undefined when that is not canonical Base64 of UTF-8), else the text as it is. */
function decode(value: string): string | undefined {
  const wrapped = SENTINEL.exec(value);
  if (wrapped === null) return value;
  const payload = wrapped[1]!;
  if (!BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a `tools/call`'s `Mcp-Param-*` headers for the tool's schema, or undefined:
 * a value in the body whose header is missing, not valid Base64, or says something else.
 */
export function paramHeaderMismatch(schema: unknown, args: unknown, headers: Headers): string | undefined {
  for (const declaration of declarations(schema)) {
    let value: unknown = args;
    for (const key of declaration.path)
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null || typeof value === 'object') continue;
    const name = `Mcp-Param-${declaration.header}`;
    const field = declaration.path.join('.');
    const given = headers.get(name);
    if (given === null) return `the body carries ${field}, and the ${name} header that must mirror it is missing`;
    const decoded = decode(given);
    if (decoded === undefined) return `the ${name} header is not valid Base64 inside =?base64?…?=`;
    const same =
      typeof value === 'number' && (declaration.type === 'number' || declaration.type === 'integer')
        ? decoded.trim() !== '' && Number(decoded) === value
        : decoded === String(value);
    if (!same)
      return `the ${name} header says ${JSON.stringify(decoded)}, and the body's ${field} is ${JSON.stringify(value)}`;
  }
  return undefined;
}
