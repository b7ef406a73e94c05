// web_search against one local server that answers as each backend does: DuckDuckGo's HTML page,
// SearXNG's, Brave's and Tavily's JSON.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry, type AppConfig } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

/** DuckDuckGo's html.duckduckgo.com/html/ markup, trimmed: an ad first, then organic results. */
const DDG_PAGE = `<!DOCTYPE html><html><body><div class="serp__results"><div id="links" class="results">
<div class="result results_links results_links_deep result--ad"><div class="links_main links_deep result__body"><h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Buy tea now</a></h2><a class="result__snippet" href="#">Sponsored</a></div></div>
<div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
  <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FUji_tea&amp;rut=abc">Uji <b>tea</b> - Wikipedia</a></h2>
  <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FUji_tea">en.wikipedia.org/wiki/Uji_tea</a></div></div>
  <a class="result__snippet" href="//duckduckgo.com/l/?uddg=x">Uji <b>tea</b> is grown in   the area around Uji, Kyoto.</a>
</div></div>
<div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">
  <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fmatcha%3Fa%3D1%26b%3D2&amp;rut=def">Matcha guide</a></h2>
  <a class="result__snippet" href="#">All about matcha.</a>
</div></div>
</div></div></body></html>`;

describe('web_search (against local backends)', () => {
  let server: Server;
  let port = 0;
  const seen: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = [];
  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const path = request.url ?? '/';
        seen.push({ path, headers: request.headers, body });
        const json = (value: unknown) =>
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        if (path.startsWith('/ddg/html/'))
          return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(DDG_PAGE);
        if (path.startsWith('/searx/search'))
          return json({
            query: 'x',
            number_of_results: 1,
            results: [
              { url: 'https://searx.example/1', title: 'SearX one', content: 'First from SearXNG', engine: 'bing' },
            ],
            answers: [],
            suggestions: [],
          });
        if (path.startsWith('/brave/res/v1/web/search')) {
          if (request.headers['x-subscription-token'] !== 'BRAVE-KEY')
            return void response.writeHead(401).end('{"type":"ErrorResponse"}');
          return json({
            type: 'search',
            query: { original: 'x' },
            web: {
              type: 'search',
              results: [
                {
                  title: 'Brave <strong>one</strong>',
                  url: 'https://brave.example/1',
                  description: 'From <strong>Brave</strong>',
                  page_age: '2026-01-01',
                },
              ],
            },
          });
        }
        if (path === '/tavily/search')
          return json({
            query: JSON.parse(body).query,
            results: [{ title: 'Tavily one', url: 'https://tavily.example/1', content: 'From Tavily', score: 0.9 }],
            response_time: 0.5,
          });
        if (path.startsWith('/bounce'))
          return void response.writeHead(302, { location: `http://10.0.0.1:${port}/secret` }).end();
        response.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const load = (web_search: Record<string, unknown>) =>
    ToolRegistry.load({ folders: [TOOL_FOLDER], config: { tools: { web_search } } as AppConfig });
  const base = (path: string) => `http://127.0.0.1:${port}${path}`;

  test('available by default (DuckDuckGo needs no key); off with the reason when no backend can serve', async () => {
    const fresh = await ToolRegistry.load({ folders: [TOOL_FOLDER], config: {} });
    assert.equal(fresh.list().find((tool) => tool.name === 'web_search')?.available, true);
    const none = (await load({ duckduckgo: { enabled: false } })).list().find((tool) => tool.name === 'web_search');
    assert.equal(none?.available, false);
    assert.match(
      none?.reason ?? '',
      /no backend can serve: tools\.web_search\.tavily\.api_key is not set; .*searxng\.url is not set.*; tools\.web_search\.duckduckgo\.enabled is false/,
    );
    const brave = (await load({ backend: 'brave' })).list().find((tool) => tool.name === 'web_search');
    assert.equal(brave?.reason, 'tools.web_search.brave.api_key is not set');
  });

  test("why it cannot search, and its errors, are in the person's language", async () => {
    const registry = await load({ duckduckgo: { enabled: false } });
    const texts = registry.find('web_search')?.reasonTexts;
    assert.match(
      texts?.zh ?? '',
      /^没有可用的搜索后端：未设置 tools\.web_search\.tavily\.api_key；.*tools\.web_search\.duckduckgo\.enabled 为 false$/,
    );
    assert.match(
      texts?.ja ?? '',
      /^使える検索バックエンドがありません：tools\.web_search\.tavily\.api_key が設定されていません、/,
    );
    const brave = await load({ backend: 'brave' });
    assert.equal(brave.find('web_search')?.reasonTexts?.ja, 'tools.web_search.brave.api_key が設定されていません');
    const ready = await load({ duckduckgo: { base_url: base('/ddg') } });
    const empty = await ready.execute('web_search', { query: '  ' }, { language: 'ja' });
    assert.equal(empty.error, '検索する内容を指定してください（例：{"query": "Kyoto tea museum"}）。');
    const zh = await ready.execute('web_search', { query: '  ' }, { language: 'zh' });
    assert.equal(zh.error, '请给出要搜索的内容，例如 {"query": "Kyoto tea museum"}。');
  });

  test("a refused fetch is told in the person's language, and the offline hint joins it as one sentence", async () => {
    const registry = await load({ duckduckgo: { base_url: base('/bounce') } });
    const zh = await registry.execute('web_search', { query: 'x' }, { language: 'zh' });
    assert.match(
      zh.error ?? '',
      /^搜索失败（duckduckgo）：已拒绝：10\.0\.0\.1 是私有地址。.*allow_hosts 中；没有互联网时/,
    );
    const ja = await registry.execute('web_search', { query: 'x' }, { language: 'ja' });
    assert.match(
      ja.error ?? '',
      /^検索に失敗しました（duckduckgo）：拒否しました：10\.0\.0\.1 はプライベートアドレスです。.*取得しません。インターネット/,
    );
    const en = await registry.execute('web_search', { query: 'x' });
    assert.match(en.error ?? '', /^The search failed \(duckduckgo\): Refused: .*allow_hosts; without internet access/);
  });

  test('DuckDuckGo: organic results from its HTML page, the redirector unwrapped, the ad left out', async () => {
    const registry = await load({ duckduckgo: { base_url: base('/ddg') } });
    const result = await registry.execute('web_search', { query: 'uji tea & matcha' });
    assert.equal(
      result.data,
      [
        '1. Uji tea - Wikipedia',
        '   https://en.wikipedia.org/wiki/Uji_tea',
        '   Uji tea is grown in the area around Uji, Kyoto.',
        '2. Matcha guide',
        '   https://example.com/matcha?a=1&b=2',
        '   All about matcha.',
      ].join('\n'),
    );
    assert.ok(seen.some((request) => request.path === '/ddg/html/?q=uji%20tea%20%26%20matcha'));
  });

  test('SearXNG, Brave (its key in the header), Tavily (its key as a bearer, the query in JSON)', async () => {
    const searx = await (await load({ searxng: { url: base('/searx') } })).execute('web_search', { query: 'one' });
    assert.equal(searx.data, '1. SearX one\n   https://searx.example/1\n   First from SearXNG');
    assert.ok(seen.some((request) => request.path === '/searx/search?q=one&format=json'));
    const brave = await (await load({ brave: { api_key: 'BRAVE-KEY', base_url: base('/brave') } })).execute(
      'web_search',
      { query: 'two', count: 3 },
    );
    assert.equal(brave.data, '1. Brave one\n   https://brave.example/1\n   From Brave');
    assert.ok(seen.some((request) => request.path === '/brave/res/v1/web/search?q=two&count=3'));
    const wrongKey = await (await load({ brave: { api_key: 'WRONG', base_url: base('/brave') } })).execute(
      'web_search',
      { query: 'two' },
    );
    assert.match(wrongKey.error ?? '', /brave answered HTTP 401 .*check its api_key/);
    // auto: Tavily first when it has a key, even with the others configured.
    const tavily = await (
      await load({ tavily: { api_key: 'TAVILY-KEY', base_url: base('/tavily') }, searxng: { url: base('/searx') } })
    ).execute('web_search', { query: 'three "quoted"' });
    assert.equal(tavily.data, '1. Tavily one\n   https://tavily.example/1\n   From Tavily');
    const sent = seen.find((request) => request.path === '/tavily/search');
    assert.equal(sent?.headers.authorization, 'Bearer TAVILY-KEY');
    assert.deepEqual(JSON.parse(sent?.body ?? '{}'), {
      query: 'three "quoted"',
      max_results: 5,
      search_depth: 'basic',
    });
  });

  test('the configured service may be private; where it redirects is checked like any fetch', async () => {
    const result = await (await load({ searxng: { url: base('/bounce') } })).execute('web_search', { query: 'x' });
    assert.match(result.error ?? '', /^The search failed \(searxng\): Refused: 10\.0\.0\.1 is a private address/);
    assert.equal(
      seen.some((request) => request.path === '/secret'),
      false,
    );
  });
});
