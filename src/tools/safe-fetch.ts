// An HTTP client for tools that fetch what a model (or a page) names: http and https only, every
// hop's address checked, redirects followed by hand, size and time bounded. The check happens in
// the socket's own DNS lookup, so the address checked is the address connected to: a DNS answer
// cannot change between the two (rebinding), and a redirect cannot lead somewhere unchecked.
// Part of the tool contract, which every tool host loads: what only a fetch needs is imported when
// one is made.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Language } from '../core/language.ts';
import { type Kind, safeFetchSaid } from './safe-fetch-text.ts';

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** For the whole fetch, redirects and body included (15 000). */
  timeoutMs?: number;
  /** Most bytes of body kept (after decompression); the rest is not read (2 MiB). */
  maxBytes?: number;
  /** Most redirects followed (5). */
  maxRedirects?: number;
  /** Reach private, loopback and unique-local addresses (not link-local or cloud metadata: those need allowHosts). */
  allowPrivate?: boolean;
  /** Host names (`intranet.lan`, `*.lan`), addresses or CIDR ranges (`10.0.0.0/8`) whose private addresses may be reached. */
  allowHosts?: readonly string[];
  /** Fixed answers, name → address, checked like any other (as /etc/hosts, without touching it). */
  hosts?: Readonly<Record<string, string>>;
  /** The resolver (default: the system's, all addresses). */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
  /** Where the settings live, for messages: `tools.web_fetch`. */
  settings?: string;
}

export interface SafeResponse {
  /** The URL of the last hop. */
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The body was longer than maxBytes and was cut there. */
  truncated: boolean;
}

/** A fetch refused before anything was sent there; `code` says why, `in(language)` says it to a person. */
export class SafeFetchError extends Error {
  override name = 'SafeFetchError';
  readonly code: 'blocked-address' | 'bad-url' | 'too-many-redirects' | 'network' | 'timeout' | 'aborted';
  readonly #texts: Readonly<Record<Language, string>> | undefined;
  /** `message` is the English text, or the text in every language (the English one is `message`). */
  constructor(code: SafeFetchError['code'], message: string | Readonly<Record<Language, string>>) {
    super(typeof message === 'string' ? message : message.en);
    this.code = code;
    this.#texts = typeof message === 'string' ? undefined : message;
  }

  /** The message in `language` (English where it has no other). */
  in(language: Language): string {
    return this.#texts?.[language] ?? this.message;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Fetches `url` under the rules above. Rejects with a SafeFetchError; an HTTP error status is a response. */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const stopped = (): SafeFetchError | undefined => {
    if (options.signal?.aborted)
      return new SafeFetchError(
        'aborted',
        safeFetchSaid((text) => text.cancelled()),
      );
    if (timeout.aborted)
      return new SafeFetchError(
        'timeout',
        safeFetchSaid((text) => text.timeout(timeoutMs / 1000)),
      );
    return undefined;
  };
  let current = parseUrl(url);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let headers = { ...options.headers };
  const maxRedirects = options.maxRedirects ?? 5;
  for (let hop = 0; ; hop++) {
    let response: IncomingMessage;
    try {
      response = await request(current, method, headers, body, signal, options);
    } catch (error) {
      throw (
        stopped() ??
        (error instanceof SafeFetchError
          ? error
          : new SafeFetchError(
              'network',
              safeFetchSaid((text) => text.unreachable(current.host, networkReason(error))),
            ))
      );
    }
    const location = response.headers.location;
    if (REDIRECTS.has(response.statusCode ?? 0) && typeof location === 'string') {
      response.destroy();
      if (hop >= maxRedirects)
        throw new SafeFetchError(
          'too-many-redirects',
          safeFetchSaid((text) => text.redirects(maxRedirects, location)),
        );
      const next = parseUrl(location, current);
      // Credentials go to the host they were meant for, not to wherever it redirects.
      if (next.host !== current.host) headers = withoutCredentials(headers);
      if (
        response.statusCode === 303 ||
        ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
      current = next;
      continue;
    }
    try {
      const { bytes, truncated } = await readBody(response, options.maxBytes ?? 2 * 1024 * 1024);
      return {
        url: current.href,
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        headers: response.headers,
        body: bytes,
        truncated,
      };
    } catch (error) {
      throw (
        stopped() ??
        new SafeFetchError(
          'network',
          safeFetchSaid((text) => text.brokeOff(current.host, networkReason(error))),
        )
      );
    }
  }
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new SafeFetchError(
      'bad-url',
      safeFetchSaid((say) => say.notUrl(JSON.stringify(text))),
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SafeFetchError(
      'bad-url',
      safeFetchSaid((say) => say.scheme(url.protocol.slice(0, -1))),
    );
  if (url.username !== '' || url.password !== '')
    throw new SafeFetchError(
      'bad-url',
      safeFetchSaid((say) => say.credentials()),
    );
  return url;
}

async function request(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal,
  options: SafeFetchOptions,
): Promise<IncomingMessage> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  // An address in the URL itself is never looked up, so it is checked here.
  if (isIP(hostname) !== 0) checkAddress(hostname, hostname, options);
  const lookup: LookupFunction = (name, lookupOptions, callback) => {
    checkedAddresses(name, options).then(
      (addresses) => {
        if (lookupOptions.all === true)
          (callback as unknown as (error: null, all: typeof addresses) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
  // Not import(): node:http's ES module face loads undici (~13 MB), which a fetch through it never uses.
  const client = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      { method, headers: { 'accept-encoding': 'gzip, deflate, br', ...headers }, lookup, signal, agent: false },
      resolve,
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

/** The resolved addresses of a name, every one of them allowed, or an error naming the one that is not. */
async function checkedAddresses(
  hostname: string,
  options: SafeFetchOptions,
): Promise<Array<{ address: string; family: number }>> {
  const fixed = options.hosts?.[hostname.toLowerCase()];
  const system = async (name: string) =>
    (await import('node:dns/promises')).lookup(name, { all: true, order: 'verbatim' });
  const answers =
    fixed !== undefined ? [{ address: fixed, family: isIP(fixed) }] : await (options.resolve ?? system)(hostname);
  if (answers.length === 0)
    throw new SafeFetchError(
      'network',
      safeFetchSaid((text) => text.noAddress(hostname)),
    );
  // All of them: a name that answers one public and one private address must not be a way in.
  for (const { address } of answers) checkAddress(address, hostname, options);
  return answers;
}

const BLOCKED: Array<[Kind, string, number, 'ipv4' | 'ipv6']> = [
  ['reserved', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local or cloud metadata', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['reserved', '224.0.0.0', 3, 'ipv4'],
  ['reserved', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['reserved', '64:ff9b::', 96, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local or cloud metadata', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'],
  ['reserved', 'ff00::', 8, 'ipv6'],
];
let lists: Map<Kind, BlockList> | undefined;
function blockLists(): Map<Kind, BlockList> {
  if (lists !== undefined) return lists;
  lists = new Map();
  for (const [kind, network, prefix, family] of BLOCKED) {
    const list = lists.get(kind) ?? new BlockList();
    list.addSubnet(network, prefix, family);
    lists.set(kind, list);
  }
  return lists;
}
/** AWS's metadata service over IPv6 sits in the unique-local range, but is metadata all the same. */
const METADATA_V6 = 'fd00:ec2::254';

/** What kind of address this is, when it is not a public one. An IPv4-mapped IPv6 address is judged as its IPv4 address. */
export function blockedKind(address: string): Kind | undefined {
  const plain = unmapped(address);
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  if (family === 'ipv6' && canonicalV6(plain) === METADATA_V6) return 'link-local or cloud metadata';
  for (const [kind, list] of blockLists()) if (list.check(plain, family)) return kind;
  return undefined;
}

function checkAddress(address: string, hostname: string, options: SafeFetchOptions): void {
  const kind = blockedKind(address);
  if (kind === undefined || allowedByList(hostname, address, options.allowHosts ?? [])) return;
  if (options.allowPrivate === true && kind !== 'link-local or cloud metadata') return;
  const where = options.settings ?? 'the tool';
  throw new SafeFetchError(
    'blocked-address',
    safeFetchSaid((text) => text.blocked(hostname, address, kind, where)),
  );
}

function allowedByList(hostname: string, address: string, allowHosts: readonly string[]): boolean {
  const name = hostname.toLowerCase();
  const plain = unmapped(address);
  return allowHosts.some((entry) => {
    const rule = entry.trim().toLowerCase();
    if (rule.includes('/')) {
      const [network, prefix] = rule.split('/');
      const family = isIP(network!) === 6 ? 'ipv6' : 'ipv4';
      if (isIP(network!) === 0 || (isIP(plain) === 6 ? 'ipv6' : 'ipv4') !== family) return false;
      const list = new BlockList();
      list.addSubnet(network!, Number(prefix), family);
      return list.check(plain, family);
    }
    if (isIP(rule) !== 0) return unmapped(rule) === plain || canonicalV6(rule) === canonicalV6(plain);
    if (rule.startsWith('*.')) return name.endsWith(rule.slice(1));
    return name === rule;
  });
}

/** `::ffff:127.0.0.1` and `::ffff:7f00:1` → `127.0.0.1`; anything else as it is. */
function unmapped(address: string): string {
  if (isIP(address) !== 6) return address;
  const canonical = canonicalV6(address);
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (match === null) return address;
  const high = Number.parseInt(match[1]!, 16);
  const low = Number.parseInt(match[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The canonical text of an IPv6 address (as the URL parser writes it), for comparing. */
function canonicalV6(address: string): string {
  if (isIP(address) !== 6) return address;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) =>
        !['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-subscription-token'].includes(
          name.toLowerCase(),
        ),
    ),
  );
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const { createBrotliDecompress, createGunzip, createInflate } = await import('node:zlib');
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    encoding === 'gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  const stream = decoder === undefined ? response : response.pipe(decoder);
  if (decoder !== undefined) response.once('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        return { bytes: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    response.destroy();
    decoder?.destroy();
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

function networkReason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : String((error as Error).message ?? error);
}

/** The fetch rules of a tool's section: `allow_private`, `allow_hosts`, `hosts`. */
export function safeFetchSettings(
  section: Record<string, unknown>,
  settings: string,
): Pick<SafeFetchOptions, 'allowPrivate' | 'allowHosts' | 'hosts' | 'settings'> {
  const allowHosts = Array.isArray(section.allow_hosts)
    ? section.allow_hosts.filter((entry): entry is string => typeof entry === 'string')
    : [];
  const hosts =
    typeof section.hosts === 'object' && section.hosts !== null && !Array.isArray(section.hosts)
      ? Object.fromEntries(
          Object.entries(section.hosts)
            .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
            .map(([name, address]) => [name.toLowerCase(), address]),
        )
      : {};
  return { allowPrivate: section.allow_private === true, allowHosts, hosts, settings };
}
