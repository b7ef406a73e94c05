// The weather tool against a real local HTTP server that answers like wttr.in's `?format=j1` API.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));
/** The tool's own time limit for the upstream request (tools.weather.timeout_ms) in the tests of a stuck service. */
const TIMEOUT_MS = 200;
/** A safety bound for the tests of a stuck service; what they assert is why a call ended, never how soon. */
const STUCK_TEST_TIMEOUT_MS = 20_000;

/** One request the fake service received. */
interface SeenRequest {
  /** The raw path, as sent: `/%E6%9D%B1%E4%BA%AC`. */
  path: string;
  city: string;
  format: string | null;
  lang: string | null;
  accept: string | undefined;
  /** Resolves when the connection has closed without an answer sent (the client gave up). */
  abandoned: Promise<void>;
}

/** Descriptions by language, as wttr.in gives them: `weatherDesc` in English, `lang_xx` for the rest. */
const SKY = { en: 'Partly cloudy', zh: '局部多云', ja: '所により曇り' } as const;

/** A trimmed-down real `?format=j1` answer. */
function report(lang: string): unknown {
  return {
    current_condition: [
      {
        FeelsLikeC: '14',
        FeelsLikeF: '57',
        cloudcover: '50',
        humidity: '63',
        ...(lang !== 'en' && lang in SKY ? { [`lang_${lang}`]: [{ value: SKY[lang as keyof typeof SKY] }] } : {}),
        localObsDateTime: '2025-05-01 09:00 AM',
        observation_time: '12:00 AM',
        precipMM: '0.0',
        pressure: '1015',
        temp_C: '16',
        temp_F: '61',
        uvIndex: '4',
        visibility: '10',
        weatherCode: '116',
        weatherDesc: [{ value: SKY.en }],
        weatherIconUrl: [{ value: '' }],
        winddir16Point: 'SSE',
        winddirDegree: '150',
        windspeedKmph: '11',
        windspeedMiles: '7',
      },
    ],
    nearest_area: [{ areaName: [{ value: 'Tokyo' }], country: [{ value: 'Japan' }] }],
    request: [{ query: 'Lat 35.69 and Lon 139.69', type: 'LatLon' }],
    weather: [],
  };
}

describe('weather tool (against a local wttr.in)', { concurrency: true }, () => {
  let server: Server;
  /** The weather tool with a time limit that a working service never meets, even on a busy machine. */
  let registry: ToolRegistry;
  /** The same with timeout_ms = TIMEOUT_MS, for a service that is stuck. */
  let hastyRegistry: ToolRegistry;
  /** The same with a 1 s limit: room for the head of the answer to arrive before the body stalls. */
  let bodyRegistry: ToolRegistry;
  const seen: SeenRequest[] = [];
  const openResponses = new Set<ServerResponse>();

  /** The requests seen for one city (each test uses its own city). */
  const requestsFor = (city: string) => seen.filter((request) => request.city === city);

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const city = decodeURIComponent(url.pathname.slice(1));
    const lang = url.searchParams.get('lang');
    let answered = false;
    response.once('finish', () => (answered = true));
    const abandoned = new Promise<void>((resolve) => response.once('close', () => !answered && resolve()));
    seen.push({
      path: url.pathname,
      city,
      format: url.searchParams.get('format'),
      lang,
      accept: request.headers.accept,
      abandoned,
    });

    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    switch (city) {
      case 'Server Error':
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'Atlantis':
        // wttr.in answers an unknown place with 404 and a JSON-ish message.
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Unknown location; please try ~53.0,-33.0');
        return;
      case 'Html Town':
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body>Follow @igor_chubin for updates</body></html>');
        return;
      case 'Nowhere':
        json(200, { nearest_area: [], request: [{ query: 'Nowhere', type: 'City' }], weather: [] });
        return;
      case 'Empty Conditions':
        json(200, { current_condition: [] });
        return;
      case 'Hang 1':
      case 'Hang 2':
      case 'Hang 3':
      case 'Cancel Me':
        // Never answers; the client must give up on its own.
        openResponses.add(response);
        response.once('close', () => openResponses.delete(response));
        return;
      case 'Slow Body':
        // Sends the head and half a body, then nothing.
        openResponses.add(response);
        response.once('close', () => openResponses.delete(response));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"current_condition": [');
        return;
      default:
        json(200, report(lang ?? 'en'));
    }
  }

  before(async () => {
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      // A trailing slash, as people write it: the tool must not make `//city` of it.
      config: { tools: { weather: { base_url: `http://127.0.0.1:${port}/`, timeout_ms: 60_000 } } },
    });
    hastyRegistry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      config: { tools: { weather: { base_url: `http://127.0.0.1:${port}`, timeout_ms: TIMEOUT_MS } } },
    });
    bodyRegistry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      config: { tools: { weather: { base_url: `http://127.0.0.1:${port}`, timeout_ms: 1_000 } } },
    });
    // Warm up fetch (loaded on first use), so that timings measure the tool, not Node starting up.
    await (await fetch(`http://127.0.0.1:${port}/Warm%20Up?format=j1`)).text();
    assert.deepEqual(
      registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
      [],
      'the tool folder loads without errors',
    );
  });

  after(async () => {
    for (const response of openResponses) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  test('the weather tool is found in agent/tools and available', () => {
    const listing = registry.list().find((tool) => tool.name === 'weather');
    assert.equal(listing?.available, true);
  });

  test('answers in English from weatherDesc', async () => {
    const result = await registry.execute('weather', { city: 'Tokyo' }, { language: 'en' });
    assert.deepEqual(result, {
      success: true,
      data: 'Tokyo: Partly cloudy, 16°C (feels like 14°C), humidity 63%, wind 11 km/h',
    });
    const [request] = requestsFor('Tokyo');
    assert.equal(request?.path, '/Tokyo');
    assert.equal(request?.format, 'j1');
    assert.equal(request?.lang, 'en');
    assert.match(request?.accept ?? '', /application\/json/);
  });

  test('answers in Chinese from lang_zh, with the city URL-encoded', async () => {
    const result = await registry.execute('weather', { city: '东京' }, { language: 'zh' });
    assert.deepEqual(result, { success: true, data: '东京：局部多云，16°C（体感 14°C），湿度 63%，风速 11 km/h' });
    const [request] = requestsFor('东京');
    assert.equal(request?.path, '/%E4%B8%9C%E4%BA%AC');
    assert.equal(request?.format, 'j1');
    assert.equal(request?.lang, 'zh');
  });

  test('answers in Japanese from lang_ja, with the city URL-encoded', async () => {
    const result = await registry.execute('weather', { city: '東京' }, { language: 'ja' });
    assert.deepEqual(result, { success: true, data: '東京：所により曇り、16°C（体感 14°C）、湿度 63%、風速 11 km/h' });
    const [request] = requestsFor('東京');
    assert.equal(request?.path, '/%E6%9D%B1%E4%BA%AC');
    assert.equal(request?.format, 'j1');
    assert.equal(request?.lang, 'ja');
  });

  test('the language defaults to English', async () => {
    const result = await registry.execute('weather', { city: 'Osaka' });
    assert.equal(result.success, true, result.error);
    assert.equal(requestsFor('Osaka')[0]?.lang, 'en');
  });

  test('spaces and URL characters in the city stay inside the path segment; the name is trimmed', async () => {
    const result = await registry.execute('weather', { city: '  Rio de Janeiro/Centro?x=1#top ' }, { language: 'en' });
    assert.equal(result.success, true, result.error);
    assert.match(result.data, /^Rio de Janeiro\/Centro\?x=1#top: Partly cloudy/);
    const [request] = requestsFor('Rio de Janeiro/Centro?x=1#top');
    assert.equal(request?.path, '/Rio%20de%20Janeiro%2FCentro%3Fx%3D1%23top');
    assert.equal(request?.format, 'j1');
    assert.equal(request?.lang, 'en');
  });

  test('no city: the registry rejects the call before the tool runs', async () => {
    const result = await registry.execute('weather', {}, { language: 'en' });
    assert.equal(result.success, false);
    assert.equal(result.code, 'invalid-params');
    assert.match(result.error ?? '', /missing required parameter "city"/);
    assert.match(result.error ?? '', /Expected: weather\(city: string\)/);
    assert.equal(seen.filter((request) => request.city.trim() === '').length, 0, 'no request was sent');
  });

  test("a blank city: the tool's own clear error, and no request", async () => {
    const result = await registry.execute('weather', { city: '   ' }, { language: 'en' });
    assert.equal(result.success, false);
    assert.equal(result.code, undefined);
    assert.match(result.error ?? '', /^Missing city: give the name of a city/);
    // Other tests of this suite run at the same time: look for a request for a blank city only.
    assert.equal(seen.filter((request) => request.city.trim() === '').length, 0, 'no request was sent');
  });

  test('upstream HTTP 500: a clear failure', async () => {
    const result = await registry.execute('weather', { city: 'Server Error' }, { language: 'en' });
    assert.equal(result.success, false);
    assert.equal(result.error, 'The weather service answered HTTP 500 Internal Server Error; try again later.');
  });

  test('upstream HTTP 404: the service does not know the place', async () => {
    const result = await registry.execute('weather', { city: 'Atlantis' }, { language: 'en' });
    assert.equal(result.success, false);
    assert.match(result.error ?? '', /does not know the place "Atlantis"/);
  });

  test('its failures are in the language of the person: zh and ja', async () => {
    const [zh, ja] = await Promise.all([
      registry.execute('weather', { city: 'Atlantis' }, { language: 'zh' }),
      registry.execute('weather', { city: '   ' }, { language: 'ja' }),
    ]);
    assert.equal(zh.error, '天气服务不认识地点“Atlantis”；请检查拼写，或换一个附近的大城市。');
    assert.match(ja.error ?? '', /^都市がありません/);
  });

  test('a body that is not JSON: a clear failure', async () => {
    const result = await registry.execute('weather', { city: 'Html Town' }, { language: 'en' });
    assert.equal(result.success, false);
    assert.equal(result.error, 'The weather service sent an answer that is not JSON.');
  });

  test('JSON without current_condition, or with an empty one: a clear failure', async () => {
    const [missing, empty] = await Promise.all([
      registry.execute('weather', { city: 'Nowhere' }, { language: 'en' }),
      registry.execute('weather', { city: 'Empty Conditions' }, { language: 'en' }),
    ]);
    for (const result of [missing, empty]) {
      assert.equal(result.success, false);
      assert.equal(result.error, 'The weather service sent an answer without current conditions.');
    }
  });

  test('an upstream that never answers: failure naming the time limit, after about timeout_ms, and the connection is closed', {
    timeout: STUCK_TEST_TIMEOUT_MS,
  }, async () => {
    // The limit runs from before the tool connects. On a very busy machine it can run out before the
    // request is even sent, leaving the server nothing to see: then try again, up to three times.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const city = `Hang ${attempt}`;
      const started = performance.now();
      const result = await hastyRegistry.execute('weather', { city }, { language: 'en' });
      const elapsed = performance.now() - started;
      assert.equal(result.success, false);
      assert.match(result.error ?? '', /did not answer within 0\.2 s/);
      assert.ok(elapsed >= TIMEOUT_MS - 20, `gave up after ${Math.round(elapsed)} ms, before the limit`);
      // The server may only now get round to a request the client sent.
      const arrived = await eventually(() => requestsFor(city).length > 0, 1_000);
      if (!arrived && attempt < 3) continue;
      assert.ok(arrived, 'the request reached the server');
      // The server never answers: only the client closing the connection settles this.
      await requestsFor(city)[0]!.abandoned;
      return;
    }
  });

  test('an upstream that stops halfway through the body: failure naming the time limit, not "not JSON"', {
    timeout: STUCK_TEST_TIMEOUT_MS,
  }, async () => {
    const result = await bodyRegistry.execute('weather', { city: 'Slow Body' }, { language: 'en' });
    assert.equal(result.success, false);
    assert.match(result.error ?? '', /did not answer within 1 s/);
    assert.ok(
      await eventually(() => requestsFor('Slow Body').length > 0, STUCK_TEST_TIMEOUT_MS),
      'the request reached the server',
    );
    // The server holds the rest of the body back: only the client closing the connection settles this.
    await requestsFor('Slow Body')[0]!.abandoned;
  });

  test('a service that cannot be reached: a clear failure', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const unreachable = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      config: { tools: { weather: { base_url: `http://127.0.0.1:${port}` } } },
    });
    const result = await unreachable.execute('weather', { city: 'Tokyo' }, { language: 'en' });
    assert.equal(result.success, false);
    assert.equal(
      result.error,
      `Cannot reach the weather service at http://127.0.0.1:${port} (ECONNREFUSED); check the network, or tools.weather.base_url in riverse.yaml.`,
    );
  });

  // The service never answers, the tool's limit is 60 s and the call's 30 s (code 'timeout'): only the
  // abort can end the call with 'aborted' within the test's timeout.
  test("the caller's abort signal cancels the request", { timeout: STUCK_TEST_TIMEOUT_MS }, async () => {
    const controller = new AbortController();
    const call = registry.execute('weather', { city: 'Cancel Me' }, { language: 'en', signal: controller.signal });
    assert.ok(
      await eventually(() => requestsFor('Cancel Me').length > 0, STUCK_TEST_TIMEOUT_MS),
      'the request reached the server',
    );
    controller.abort();
    const result = await call;
    assert.equal(result.success, false);
    assert.equal(result.code, 'aborted');
    assert.match(result.error ?? '', /cancelled/);
    await requestsFor('Cancel Me')[0]!.abandoned;
  });
});

/** Polls `condition` for up to `ms`; true once it holds. */
async function eventually(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}
