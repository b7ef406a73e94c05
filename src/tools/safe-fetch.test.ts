// The SSRF rules against a real local server: what may be reached is decided on the resolved address
// of every hop, and the address checked is the one connected to.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { blockedKind, safeFetch, SafeFetchError } from './safe-fetch.ts';

describe('safeFetch', () => {
  let server: Server;
  let port = 0;
  const seen: Array<{ path: string; host?: string; authorization?: string }> = [];
  before(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      seen.push({ path, host: request.headers.host, authorization: request.headers.authorization });
      if (path.startsWith('/to?'))
        return void response.writeHead(302, { location: decodeURIComponent(path.slice(4)) }).end();
      if (path.startsWith('/loop'))
        return void response.writeHead(301, { location: `/loop${Number(path.slice(5) || 0) + 1}` }).end();
      if (path === '/big') return void response.writeHead(200).end('y'.repeat(10_000));
      if (path === '/gzip')
        return void response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('z'.repeat(10_000)));
      if (path === '/hang') return;
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${path}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const local = (path: string) => `http://127.0.0.1:${port}${path}`;
  const requested = (path: string) => seen.some((request) => request.path === path);
  const refused = async (promise: Promise<unknown>, code: SafeFetchError['code'], pattern?: RegExp) => {
    const error = await promise.then(
      () => assert.fail('fetched'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof SafeFetchError, String(error));
    assert.equal(error.code, code, error.message);
    if (pattern !== undefined) assert.match(error.message, pattern);
  };

  test('the kinds of address: loopback, private, link-local and metadata, IPv6 forms, IPv4-mapped', () => {
    const cases: Array<[string, string | undefined]> = [
      ['127.0.0.1', 'loopback'],
      ['127.8.9.10', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.31.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['169.254.169.254', 'link-local or cloud metadata'],
      ['0.0.0.0', 'reserved'],
      ['224.0.0.1', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'reserved'],
      ['fe80::1', 'link-local or cloud metadata'],
      ['fd12:3456::1', 'private'],
      ['fd00:ec2::254', 'link-local or cloud metadata'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:a9fe:a9fe', 'link-local or cloud metadata'],
      ['0:0:0:0:0:ffff:10.0.0.1', 'private'],
      ['8.8.8.8', undefined],
      ['2001:4860:4860::8888', undefined],
      ['::ffff:8.8.8.8', undefined],
      ['172.32.0.1', undefined],
    ];
    for (const [address, kind] of cases) assert.equal(blockedKind(address), kind, address);
  });

  test('loopback, IPv6 loopback and IPv4-mapped addresses in the URL are refused before anything is sent', async () => {
    for (const url of [
      local('/a'),
      `http://[::1]:${port}/a`,
      `http://[::ffff:127.0.0.1]:${port}/a`,
      `http://2130706433:${port}/a`,
      `http://0x7f.1:${port}/a`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      await refused(
        safeFetch(url, { settings: 'tools.web_fetch' }),
        'blocked-address',
        /Refused: .* tools\.web_fetch\.allow_private/,
      );
    }
    assert.equal(requested('/a'), false);
  });

  test('a name that resolves to a private address is refused: the system resolver (localhost), a resolver hook, a fixed answer', async () => {
    await refused(
      safeFetch(`http://localhost:${port}/b`),
      'blocked-address',
      /localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/,
    );
    await refused(
      safeFetch(`http://evil.test:${port}/b`, { resolve: async () => [{ address: '127.0.0.1', family: 4 }] }),
      'blocked-address',
      /evil\.test resolves to 127\.0\.0\.1/,
    );
    await refused(safeFetch(`http://evil.test:${port}/b`, { hosts: { 'evil.test': '10.0.0.5' } }), 'blocked-address');
    // One private answer among public ones is enough to refuse: the socket might pick any.
    await refused(
      safeFetch(`http://mixed.test:${port}/b`, {
        resolve: async () => [
          { address: '93.184.215.14', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
      }),
      'blocked-address',
    );
    assert.equal(requested('/b'), false);
  });

  test('allowed by config: allow_hosts by address, by CIDR, by name; allow_private', async () => {
    assert.equal((await safeFetch(local('/c1'), { allowHosts: ['127.0.0.1'] })).body.toString(), 'hello /c1');
    assert.equal((await safeFetch(local('/c2'), { allowHosts: ['127.0.0.0/8'] })).status, 200);
    assert.equal(
      (
        await safeFetch(`http://intranet.test:${port}/c3`, {
          hosts: { 'intranet.test': '127.0.0.1' },
          allowHosts: ['*.test'],
        })
      ).status,
      200,
    );
    assert.equal((await safeFetch(local('/c4'), { allowPrivate: true })).status, 200);
    // allow_private does not open link-local addresses, where cloud metadata lives.
    await refused(safeFetch('http://169.254.169.254/', { allowPrivate: true }), 'blocked-address');
  });

  test('the address checked is the address connected to: one resolution per hop, its answer used', async () => {
    let calls = 0;
    // A rebinding resolver: an allowed answer first, a forbidden one after.
    const resolve = async () =>
      calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }];
    const response = await safeFetch(`http://rebind.test:${port}/d`, { resolve, allowHosts: ['127.0.0.1/32'] });
    assert.equal(response.body.toString(), 'hello /d');
    assert.equal(calls, 1);
  });

  test('every redirect hop is checked: to a private address, to a name that resolves to one, to an IPv4-mapped one', async () => {
    const options = { hosts: { 'allowed.test': '127.0.0.1', 'evil.test': '127.0.0.1' }, allowHosts: ['allowed.test'] };
    for (const target of [
      local('/secret1'),
      `http://evil.test:${port}/secret2`,
      `http://[::ffff:127.0.0.1]:${port}/secret3`,
      `http://localhost:${port}/secret4`,
    ]) {
      await refused(
        safeFetch(`http://allowed.test:${port}/to?${encodeURIComponent(target)}`, options),
        'blocked-address',
      );
    }
    for (const path of ['/secret1', '/secret2', '/secret3', '/secret4']) assert.equal(requested(path), false, path);
    // An allowed hop is followed.
    const followed = await safeFetch(`http://allowed.test:${port}/to?${encodeURIComponent('/e')}`, options);
    assert.equal(followed.body.toString(), 'hello /e');
    assert.equal(followed.url, `http://allowed.test:${port}/e`);
  });

  test('redirects are capped; a redirect to another scheme is refused; credentials do not follow to another host', async () => {
    await refused(
      safeFetch(local('/loop'), { allowHosts: ['127.0.0.1'], maxRedirects: 3 }),
      'too-many-redirects',
      /More than 3 redirects/,
    );
    await refused(
      safeFetch(local(`/to?${encodeURIComponent('file:///etc/passwd')}`), { allowHosts: ['127.0.0.1'] }),
      'bad-url',
      /Only http and https/,
    );
    const options = {
      hosts: { 'one.test': '127.0.0.1', 'two.test': '127.0.0.1' },
      allowHosts: ['*.test'],
      headers: { authorization: 'Bearer SECRET' },
    };
    await safeFetch(`http://one.test:${port}/to?${encodeURIComponent(`http://two.test:${port}/f`)}`, options);
    assert.equal(
      seen.find((request) => request.path.startsWith('/to?') && request.host === `one.test:${port}`)?.authorization,
      'Bearer SECRET',
    );
    assert.equal(seen.find((request) => request.path === '/f')?.authorization, undefined);
  });

  test('not http(s), or with credentials in it: refused', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'gopher://127.0.0.1/',
      'data:text/plain,hi',
      'not a url',
      `http://user:pw@127.0.0.1:${port}/`,
    ])
      await refused(safeFetch(url), 'bad-url');
  });

  test('a body past maxBytes is cut, compressed or not', async () => {
    const big = await safeFetch(local('/big'), { allowHosts: ['127.0.0.1'], maxBytes: 1000 });
    assert.equal(big.body.length, 1000);
    assert.equal(big.truncated, true);
    const zipped = await safeFetch(local('/gzip'), { allowHosts: ['127.0.0.1'], maxBytes: 1000 });
    assert.equal(zipped.body.toString(), 'z'.repeat(1000));
    assert.equal(zipped.truncated, true);
  });

  test('a server that never answers: a timeout error, in about timeoutMs', async () => {
    await refused(safeFetch(local('/hang'), { allowHosts: ['127.0.0.1'], timeoutMs: 200 }), 'timeout', /within 0\.2 s/);
  });
});
