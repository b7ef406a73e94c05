import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import {
  defaultPost,
  defaultTransport,
  fetchPost,
  nodeHttpTransport,
  readText,
  undiciTransport,
  type HttpPost,
} from './http-transport.ts';
import { createOpenAICompatibleModel } from './providers/openai/openai-compatible.ts';
import { networkError } from './request-errors.ts';
import { startOpenAITestServer } from './testing/openai-wire.ts';

/** A server that numbers its connections and tells which one served each request. */
async function startServer(): Promise<{ server: Server; url: string; closed: Promise<void>[]; bodies: string[] }> {
  const ids = new WeakMap<Socket, number>();
  const closed: Promise<void>[] = [];
  const bodies: string[] = [];
  const server = createServer(async (request, response) => {
    const received: Buffer[] = [];
    for await (const piece of request) received.push(piece as Buffer);
    const body = Buffer.concat(received).toString('utf8');
    bodies.push(body);
    const connection = String(ids.get(request.socket));
    const send = (res: ServerResponse, status: number, text: string) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-connection': connection,
        'set-cookie': ['a=1', 'b=2'],
      });
      res.end(text);
    };
    if (request.url === '/json')
      return send(response, 200, JSON.stringify({ got: JSON.parse(body), auth: request.headers.authorization }));
    if (request.url === '/busy') return send(response, 503, '{"error":"busy"}');
    if (request.url === '/pieces') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-connection': connection });
      for (const piece of ['one ', 'two ', 'three']) {
        response.write(piece);
        await delay(15);
      }
      return response.end();
    }
    if (request.url === '/endless') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-connection': connection });
      response.write('first');
      return; // never ends
    }
    if (request.url === '/silent') return; // never answers
    send(response, 404, '{}');
  });
  let next = 0;
  server.on('connection', (socket) => {
    ids.set(socket, ++next);
    closed[next] = once(socket, 'close').then(() => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed, bodies };
}

async function readAll(post: HttpPost, url: string): Promise<{ pieces: string[]; connection: string | undefined }> {
  const response = await post(url, {}, '{}', new AbortController().signal);
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  for (let piece = await response.read(); piece !== undefined; piece = await response.read())
    pieces.push(decoder.decode(piece));
  return { pieces, connection: response.header('x-connection') };
}

const transports: [string, HttpPost][] = [
  ['node:http (the default)', defaultPost],
  ['undici (through a proxy; here with none set)', undiciTransport({})],
  ['a given fetch', fetchPost(fetch)],
];

for (const [name, post] of transports) {
  describe(`HTTP transport: ${name}`, () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    before(async () => {
      server = await startServer();
    });
    after(() => {
      server.server.closeAllConnections();
      server.server.close();
    });

    it('posts the body and headers, and reads the status, headers and text', async () => {
      const response = await post(
        `${server.url}/json`,
        { 'content-type': 'application/json', authorization: 'Bearer k' },
        '{"x":1}',
        new AbortController().signal,
      );
      assert.equal(response.status, 200);
      assert.equal(response.header('content-type'), 'application/json');
      assert.equal(response.header('set-cookie'), 'a=1, b=2', 'repeated headers are joined');
      assert.equal(response.header('x-missing'), undefined);
      assert.deepEqual(JSON.parse((await readText(response, 1 << 20)).text), { got: { x: 1 }, auth: 'Bearer k' });
      const failed = await post(`${server.url}/busy`, {}, '{}', new AbortController().signal);
      assert.equal(failed.status, 503);
      assert.equal((await readText(failed, 1 << 20)).text, '{"error":"busy"}');
    });

    it('posts a body given as its pieces, text and bytes, whole and in order (its length counted in bytes)', async () => {
      const catalog = Buffer.from('"tools":["東京","16 °C"]');
      const response = await post(
        `${server.url}/json`,
        { 'content-type': 'application/json' },
        ['{"x":"ü",', catalog, ',"y":2}'],
        new AbortController().signal,
      );
      assert.equal(response.status, 200);
      assert.deepEqual(JSON.parse((await readText(response, 1 << 20)).text).got, {
        x: 'ü',
        tools: ['東京', '16 °C'],
        y: 2,
      });
    });

    it('reads the body piece by piece, in order, then undefined', async () => {
      const { pieces } = await readAll(post, `${server.url}/pieces`);
      assert.equal(pieces.join(''), 'one two three');
      assert.ok(pieces.length >= 2, `the pieces come as the server sends them, got ${JSON.stringify(pieces)}`);
    });

    it('drains a body so that the next request reuses the connection', async () => {
      // A server of its own, so the pool starts empty: an undrained connection would force a second one.
      const own = await startServer();
      try {
        const first = await post(`${own.url}/pieces`, {}, '{}', new AbortController().signal);
        assert.ok((await first.read()) !== undefined);
        await first.drain();
        await new Promise((resolve) => setImmediate(resolve)); // the pool takes a finished connection back on the next turn
        const second = await readAll(post, `${own.url}/pieces`);
        assert.equal(first.header('x-connection'), '1');
        assert.equal(second.connection, '1');
      } finally {
        own.server.closeAllConnections();
        own.server.close();
      }
    });

    it('cancel closes the connection of an unfinished body', async () => {
      const response = await post(`${server.url}/endless`, {}, '{}', new AbortController().signal);
      assert.equal(new TextDecoder().decode(await response.read()), 'first');
      response.cancel();
      await server.closed[Number(response.header('x-connection'))];
    });

    it('rejects when the signal aborts while waiting for the answer', async () => {
      const controller = new AbortController();
      const pending = post(`${server.url}/silent`, {}, '{}', controller.signal);
      setTimeout(() => controller.abort(), 20);
      await assert.rejects(pending);
    });

    it('rejects a refused connection with an error that says so', async () => {
      const closed = createServer();
      closed.listen(0, '127.0.0.1');
      await once(closed, 'listening');
      const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      closed.close();
      await once(closed, 'close');
      const error = await post(url, {}, '{}', new AbortController().signal).then(
        () => assert.fail('expected a refused connection'),
        (caught: unknown) => caught,
      );
      const context = {
        provider: 'openai',
        model: 'm',
        baseUrl: url,
        url,
        hasApiKey: false,
        apiKeyEnv: 'OPENAI_API_KEY',
      };
      const refused = networkError(error, context);
      assert.match(refused.message, /connection refused; is the server running\?/);
      // Said to a person in their language (the dashboard's chat page, a chat in the terminal).
      assert.equal(refused.localized('zh'), `无法连接 ${url}：连接被拒绝；服务器在运行吗？`);
      assert.match(refused.localized('ja'), /に接続できません：接続を拒否されました/);
    });
  });
}

describe('HTTP transport: node:http and connections the server closes', () => {
  it('a request on a kept connection that the server drops unanswered is sent again once, on a new connection', async () => {
    // The server answers the first request of each connection and drops the connection at the
    // second, as one whose idle timeout fires just as the next request arrives.
    const served = new WeakMap<Socket, number>();
    let connections = 0;
    const server = createServer((request, response) => {
      const count = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, count);
      request.resume();
      if (count > 1) return void request.socket.destroy();
      response.end(`answer ${count} on connection ${connections}`);
    });
    server.on('connection', () => connections++);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const post = nodeHttpTransport();
      const first = await post(url, {}, '{}', new AbortController().signal);
      assert.equal((await readText(first, 1 << 20)).text, 'answer 1 on connection 1');
      await new Promise((resolve) => setImmediate(resolve)); // the connection goes back to the pool
      const second = await post(url, {}, '{}', new AbortController().signal);
      assert.equal(
        (await readText(second, 1 << 20)).text,
        'answer 1 on connection 2',
        'sent again, on a new connection',
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a new connection that the server drops is an error, not sent again', async () => {
    let requests = 0;
    const server = createServer((request) => {
      requests++;
      request.socket.destroy();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await assert.rejects(nodeHttpTransport()(url, {}, '{}', new AbortController().signal), { code: 'ECONNRESET' });
      assert.equal(requests, 1);
    } finally {
      server.close();
    }
  });
});

/** A forward proxy on 127.0.0.1 that sends every host it is asked for to `target` and notes the URLs. */
async function startProxy(target: string): Promise<{ url: string; seen: string[]; close: () => void }> {
  const seen: string[] = [];
  const proxy = createServer((request, response) => {
    seen.push(request.url!);
    const upstream = new URL(request.url!);
    const forwarded = httpRequest(
      `${target}${upstream.pathname}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forwarded);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () => {
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}

describe('HTTP transport: what it loads', () => {
  it('a request through node:http loads no undici (its ES module face would: ~13 MB, 030)', async () => {
    const server = createServer((_, response) => response.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const transport = new URL('./http-transport.ts', import.meta.url).href;
    const script = `const { nodeHttpTransport, readText } = await import(${JSON.stringify(transport)});
const reply = await nodeHttpTransport()(${JSON.stringify(url)}, {}, '{}', new AbortController().signal);
const { text } = await readText(reply, 1024);
console.log(JSON.stringify({ text, undici: process.moduleLoadList.some((name) => name.includes('undici')) }));
process.exit(0);`;
    try {
      const { execFile } = process.getBuiltinModule('node:child_process');
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--input-type=module', '-e', script], (error, out) =>
          error ? reject(error) : resolve(out),
        ),
      );
      assert.deepEqual(JSON.parse(stdout), { text: 'ok', undici: false });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('HTTP transport: proxies from the environment', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  before(async () => {
    server = await startServer();
    proxy = await startProxy(server.url);
  });
  after(() => {
    proxy.close();
    server.server.closeAllConnections();
    server.server.close();
  });
  const ask = async (post: HttpPost, url: string) => {
    const response = await post(url, { 'content-type': 'application/json' }, '{"q":1}', new AbortController().signal);
    return { status: response.status, body: (await readText(response, 1 << 20)).text };
  };
  const port = () => new URL(server.url).port;

  it('HTTP_PROXY (or http_proxy) carries requests to other hosts', async () => {
    for (const variable of ['HTTP_PROXY', 'http_proxy']) {
      const post = undiciTransport({ [variable]: proxy.url });
      const url = `http://model.invalid:${port()}/json`;
      assert.deepEqual(await ask(post, url), { status: 200, body: JSON.stringify({ got: { q: 1 } }) }, variable);
      assert.equal(proxy.seen.at(-1), url, `${variable}: the proxy was asked for the model's URL`);
    }
  });

  it('loopback addresses and NO_PROXY hosts go direct', async () => {
    const seen = proxy.seen.length;
    const post = undiciTransport({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: 'model.invalid' });
    assert.equal((await ask(post, `${server.url}/json`)).status, 200, 'a local model server is reached directly');
    assert.equal(proxy.seen.length, seen);
    const error = await ask(post, `http://model.invalid:${port()}/json`).then(
      () => assert.fail('model.invalid does not resolve, so only the proxy could have reached it'),
      (caught: unknown) => caught,
    );
    const context = {
      provider: 'openai',
      model: 'm',
      baseUrl: 'http://model.invalid',
      url: 'http://model.invalid',
      hasApiKey: false,
      apiKeyEnv: 'OPENAI_API_KEY',
    };
    assert.match(networkError(error, context).message, /host model\.invalid not found/);
    assert.equal(proxy.seen.length, seen);
  });

  it('the default transport goes through the proxy the environment names, and refuses one that is not a URL', async () => {
    const url = `http://model.invalid:${port()}/json`;
    assert.deepEqual(await ask(defaultTransport({ HTTP_PROXY: proxy.url }), url), {
      status: 200,
      body: JSON.stringify({ got: { q: 1 } }),
    });
    assert.equal(proxy.seen.at(-1), url, "the proxy was asked for the model's URL");
    await assert.rejects(
      defaultTransport({ HTTPS_PROXY: 'proxy.corp:8080' })(url, {}, '{}', new AbortController().signal),
      { name: 'ModelError', code: 'not-configured' },
    );
  });

  it('a proxy setting that is not a URL is a clear configuration error', async () => {
    const post = undiciTransport({ HTTPS_PROXY: 'proxy.corp:8080 ' });
    await assert.rejects(ask(post, `${server.url}/json`), {
      name: 'ModelError',
      code: 'not-configured',
      message:
        'HTTPS_PROXY="proxy.corp:8080" is not an http:// or https:// proxy URL (e.g. http://127.0.0.1:7890); fix it or unset it',
    });
  });
});

describe('model adapters with a given fetch', () => {
  it('send every request through it', async () => {
    const server = await startOpenAITestServer({ text: 'hello' });
    try {
      const seen: string[] = [];
      const counting: typeof fetch = (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      };
      const model = createOpenAICompatibleModel({ model: 'm', baseUrl: server.url, fetch: counting });
      for (const stream of [false, true]) {
        let text = '';
        for await (const event of model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [], stream }))
          if (event.type === 'text-delta') text += event.text;
        assert.equal(text, 'hello');
      }
      assert.deepEqual(seen, [`${server.url}/chat/completions`, `${server.url}/chat/completions`]);
    } finally {
      await server.close();
    }
  });
});
