// web_fetch against a real local site, reached by name through tools.web_fetch.hosts (no DNS needed)
// and allowed by tools.web_fetch.allow_hosts; every other way to loopback is refused.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

const ARTICLE = `<!doctype html><html><head><title>Tea in Kyoto</title><script>var tracking = "SCRIPT-TEXT";</script><style>p { color: red }</style></head>
<body><nav><a href="/">Home</a> <a href="/shop">Shop</a> NAV-TEXT</nav>
<article><h1>Tea in Kyoto</h1>
<p>Kyoto has grown tea for eight hundred years, and the hills south of the city, around Uji, are still covered with tea fields that supply the finest matcha in Japan.</p>
<p>Visitors can walk between the fields in spring, when the new leaves are picked by hand, and taste the first tea of the year in small shops along the river.</p>
<ul><li>Matcha</li><li>Gyokuro</li></ul>
<p>Most shops close early, so it is best to arrive in the morning and to book a tasting a few days ahead during the busy season.</p></article>
<footer>FOOTER-TEXT © 2026</footer></body></html>`;

describe('web_fetch (against a local site)', () => {
  let server: Server;
  let port = 0;
  let registry: ToolRegistry;
  const seen: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      seen.push(path);
      if (path === '/article')
        return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
      if (path === '/og-page')
        return void response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><head><meta property="og:image" content="/photo.png"></head><body><p>A page with a photo.</p><img src="/other.png" width="640" height="480"></body></html>`,
          );
      if (path === '/img-page')
        return void response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><body><p>Pictures.</p><img src="/icon.png" width="16" height="16"><img src="photo.png" width="800" height="600"></body></html>`,
          );
      if (path === '/evil-image-page')
        return void response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><head><meta property="og:image" content="http://evil.test:${port}/s9"></head><body>x</body></html>`,
          );
      if (path === '/photo.png')
        return void response
          .writeHead(200, { 'content-type': 'image/png' })
          .end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2]));
      if (path === '/plain') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('just text');
      if (path === '/image')
        return void response
          .writeHead(200, { 'content-type': 'image/png' })
          .end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
      if (path === '/big')
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end('b'.repeat(50_000));
      if (path === '/missing') return void response.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
      if (path.startsWith('/to?'))
        return void response.writeHead(302, { location: decodeURIComponent(path.slice(4)) }).end();
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`SECRET at ${path}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      config: {
        tools: {
          web_fetch: {
            hosts: { 'site.test': '127.0.0.1', 'evil.test': '127.0.0.1' },
            allow_hosts: ['site.test'],
            max_bytes: 10_000,
          },
        },
      },
    });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const site = (path: string) => `http://site.test:${port}${path}`;

  test('on by default', async () => {
    const fresh = await ToolRegistry.load({ folders: [TOOL_FOLDER], config: {} });
    assert.equal(fresh.list().find((tool) => tool.name === 'web_fetch')?.available, true);
  });

  test('the readable text of an article: title, headings, paragraphs and list items; no menu, script, style or footer', async () => {
    const result = await registry.execute('web_fetch', { url: site('/article') });
    assert.equal(result.success, true, result.error);
    assert.match(result.data, /^Title: Tea in Kyoto\nURL: http:\/\/site\.test:\d+\/article\n\n/);
    assert.match(result.data, /\nKyoto has grown tea for eight hundred years, .* in Japan\.\n/);
    assert.match(result.data, /\n- Matcha\n- Gyokuro\n/);
    assert.doesNotMatch(result.data, /SCRIPT-TEXT|NAV-TEXT|FOOTER-TEXT|color: red/);
  });

  test('text as it is; a picture as an image; an HTTP error reported; a long page cut at max_bytes', async () => {
    assert.equal(
      (await registry.execute('web_fetch', { url: site('/plain') })).data,
      `URL: ${site('/plain')}\n\njust text`,
    );
    const image = await registry.execute('web_fetch', { url: site('/image') });
    assert.match(image.data, /is an image \(image\/png, 7 bytes\); it is attached/);
    const [part] = image.content ?? [];
    assert.ok(part?.type === 'image' && part.mimeType === 'image/png');
    assert.deepEqual([...Buffer.from(part.data as Uint8Array)], [0x89, 0x50, 0x4e, 0x47, 0, 0, 0]);
    assert.match(
      (await registry.execute('web_fetch', { url: site('/missing') })).error ?? '',
      /answered HTTP 404 Not Found/,
    );
    const big = await registry.execute('web_fetch', { url: site('/big') });
    assert.match(big.data, /b{10000}\n…\[the page is longer than 10,000 bytes; the rest was not read\]$/);
  });

  test("image: true adds the page's main picture (og:image, else the first large <img>) as an image part, fetched as safely", async () => {
    for (const page of ['/og-page', '/img-page']) {
      const result = await registry.execute('web_fetch', { url: site(page), image: true });
      assert.equal(result.success, true, result.error);
      assert.match(
        result.data,
        new RegExp(
          `\n\nMain image: ${site('/photo.png').replace(/[.?]/g, '\\$&')} \\(image/png, 6 bytes\\); it is attached\\.$`,
        ),
      );
      const [part] = result.content ?? [];
      assert.ok(part?.type === 'image' && part.mimeType === 'image/png', page);
      assert.deepEqual([...Buffer.from(part.data as Uint8Array)], [0x89, 0x50, 0x4e, 0x47, 1, 2]);
    }
    // Not asked for: the text alone, and no picture fetched.
    const before = seen.filter((path) => path === '/photo.png').length;
    const plain = await registry.execute('web_fetch', { url: site('/og-page') });
    assert.equal(plain.content, undefined);
    assert.equal(seen.filter((path) => path === '/photo.png').length, before);
    // None named; one at a refused address (not fetched), said in the person's language.
    const none = await registry.execute('web_fetch', { url: site('/article'), image: true });
    assert.match(none.data, /\n\nMain image: the page names none/);
    assert.equal(none.content, undefined);
    const evil = await registry.execute(
      'web_fetch',
      { url: site('/evil-image-page'), image: true },
      { language: 'zh' },
    );
    assert.equal(evil.success, true);
    assert.match(evil.data, /主图：无法获取 http:\/\/evil\.test:\d+\/s9（已拒绝/);
    assert.equal(seen.includes('/s9'), false);
  });

  test('loopback, IPv4-mapped, a name resolving to loopback, and redirects to any of them: refused, nothing served', async () => {
    const hostile = [
      `http://127.0.0.1:${port}/s1`,
      `http://[::ffff:127.0.0.1]:${port}/s2`,
      `http://localhost:${port}/s3`,
      `http://evil.test:${port}/s4`,
      site(`/to?${encodeURIComponent(`http://127.0.0.1:${port}/s5`)}`),
      site(`/to?${encodeURIComponent(`http://evil.test:${port}/s6`)}`),
      site(`/to?${encodeURIComponent(`http://[::1]:${port}/s7`)}`),
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const url of hostile) {
      const result = await registry.execute('web_fetch', { url });
      assert.equal(result.success, false, url);
      assert.match(
        result.error ?? '',
        /^Refused: .* address\. Private, loopback, link-local and metadata addresses are not fetched unless tools\.web_fetch\.allow_private/,
        url,
      );
    }
    for (const path of ['/s1', '/s2', '/s3', '/s4', '/s5', '/s6', '/s7'])
      assert.equal(seen.includes(path), false, path);
  });

  test("refusals are in the person's language", async () => {
    const ja = await registry.execute('web_fetch', { url: `http://127.0.0.1:${port}/s8` }, { language: 'ja' });
    assert.match(
      ja.error ?? '',
      /^拒否しました：127\.0\.0\.1 はループバックアドレスです。.*tools\.web_fetch\.allow_private が true/,
    );
    const zh = await registry.execute('web_fetch', { url: 'ftp://example.com/x' }, { language: 'zh' });
    assert.equal(zh.error, '只获取 http 和 https 地址，不获取 ftp:。');
    const missing = await registry.execute('web_fetch', { url: site('/missing') }, { language: 'ja' });
    assert.equal(missing.error, `${site('/missing')} が HTTP 404 Not Found を返しました。`);
    assert.equal(seen.includes('/s8'), false);
  });

  test('other schemes are refused', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)']) {
      assert.match((await registry.execute('web_fetch', { url })).error ?? '', /Only http and https|not a URL/, url);
    }
  });
});
