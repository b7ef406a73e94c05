// The service's rules over real HTTP: Host (DNS rebinding), the token, Origin on state-changing
// requests, CORS, the body size limit, and JSON errors for what is not there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServeRefusedError, startServer } from './serve.ts';
import { serverOptions } from './server-config.ts';
import { modelServer, testModel } from '../assistant/turn-test-support.ts';
import { raw, sseMessages, startTestService } from './server-test-support.ts';

describe('the Host rule', () => {
  it('refuses a name that rebinds to 127.0.0.1, and accepts loopback names and IP addresses', async (t) => {
    const { port } = await startTestService(t);
    const rebound = await raw(port, '/api/status', { headers: { host: `evil.example:${port}` } });
    assert.equal(rebound.status, 403);
    assert.equal(rebound.json.error.code, 'host-not-allowed');
    assert.match(rebound.json.error.message, /evil\.example/);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `LocalHost.:${port}`,
      'app.localhost',
    ]) {
      const ok = await raw(port, '/api/status', { headers: { host } });
      assert.equal(ok.status, 200, `${host}: ${ok.text}`);
    }
  });

  it('accepts the names in allowed_hosts (a reverse proxy), with or without a port', async (t) => {
    const { port } = await startTestService(t, { server: { allowedHosts: ['riverse.example', 'other.example:9000'] } });
    assert.equal((await raw(port, '/api/status', { headers: { host: 'riverse.example' } })).status, 200);
    assert.equal((await raw(port, '/api/status', { headers: { host: 'riverse.example:443' } })).status, 200);
    assert.equal((await raw(port, '/api/status', { headers: { host: 'other.example:9000' } })).status, 200);
    assert.equal((await raw(port, '/api/status', { headers: { host: 'other.example:9001' } })).status, 403);
    assert.equal((await raw(port, '/api/status', { headers: { host: 'sub.riverse.example' } })).status, 403);
  });

  it('answers a refused Host on /v1 in the OpenAI error shape', async (t) => {
    const { port } = await startTestService(t);
    const response = await raw(port, '/v1/models', { headers: { host: 'evil.example' } });
    assert.equal(response.status, 403);
    assert.deepEqual(Object.keys(response.json.error).sort(), ['code', 'message', 'param', 'type']);
    assert.equal(response.json.error.type, 'permission_error');
    assert.equal(response.json.error.code, 'host-not-allowed');
  });
});

describe('the token', () => {
  it('without one, nothing asks for it', async (t) => {
    const { port } = await startTestService(t);
    assert.equal((await raw(port, '/api/status')).status, 200);
  });

  it('is required on /api and /v1: missing, wrong (of any length) and right', async (t) => {
    const { port } = await startTestService(t, { server: { token: 's3cret-token' } });
    const missing = await raw(port, '/api/status');
    assert.equal(missing.status, 401);
    assert.equal(missing.json.error.code, 'token-required');
    assert.match(String(missing.headers['www-authenticate']), /^Bearer/);
    // Compared as digests: a guess of another length is refused like any other, not a crash.
    for (const guess of ['s3cret-tokem', 'x', 's3cret-token-and-more', 's3cret-toke']) {
      const wrong = await raw(port, '/api/status', { headers: { authorization: `Bearer ${guess}` } });
      assert.equal(wrong.status, 401, guess);
      assert.equal(wrong.json.error.code, 'token-invalid');
    }
    assert.equal(
      (await raw(port, '/api/status', { headers: { authorization: 'Basic s3cret-token' } })).json.error.code,
      'token-required',
    );
    assert.equal((await raw(port, '/api/status', { headers: { authorization: 'Bearer s3cret-token' } })).status, 200);
    const openai = await raw(port, '/v1/models');
    assert.equal(openai.status, 401);
    assert.equal(openai.json.error.type, 'authentication_error');
  });

  it("is not asked of the dashboard's static files, which a browser loads before it knows the token", async (t) => {
    const { port } = await startTestService(t, { server: { token: 's3cret-token' } });
    for (const path of ['/', '/index.html', '/assets/app.js'])
      assert.notEqual((await raw(port, path)).status, 401, path);
    assert.equal((await raw(port, '/anything', { method: 'POST', body: {} })).status, 401);
    // Spellings of an API path that reach its route still need the token; the others reach nothing.
    for (const path of ['/%61pi/status', '/./api/status', '/v1/../api/status', '/api/%73tatus', '/api/status/'])
      assert.equal((await raw(port, path)).status, 401, path);
    for (const path of ['//api/status', '/API/status', '/api%2Fstatus'])
      assert.equal((await raw(port, path)).status, 404, path);
  });
});

describe('the Origin rule', () => {
  it('refuses a state-changing request from a foreign page, and lets its own origin and no origin through', async (t) => {
    const { port } = await startTestService(t);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const foreign = await raw(port, '/api/sessions/x', {
        method,
        body: {},
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(foreign.status, 403, method);
      assert.equal(foreign.json.error.code, 'origin-not-allowed');
    }
    assert.equal((await raw(port, '/api/sessions/x', { method: 'DELETE', headers: { origin: 'null' } })).status, 403);
    // Own origin, and none: past the rule (to the route, which does not exist yet or answers itself).
    for (const headers of [{ origin: `http://127.0.0.1:${port}` }, {} as Record<string, string>]) {
      const passed = await raw(port, '/api/nothing-here', { method: 'POST', body: {}, headers });
      assert.equal(passed.status, 404, JSON.stringify(headers));
      assert.equal(passed.json.error.code, 'not-found');
    }
    const openai = await raw(port, '/v1/chat/completions', {
      method: 'POST',
      body: {},
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(openai.status, 403);
    assert.deepEqual(
      { type: openai.json.error.type, code: openai.json.error.code },
      { type: 'permission_error', code: 'origin-not-allowed' },
    );
    // A read from a foreign page changes nothing; CORS keeps its answer from the page.
    assert.equal((await raw(port, '/api/status', { headers: { origin: 'https://evil.example' } })).status, 200);
  });

  it('lets a configured CORS origin through', async (t) => {
    const { port } = await startTestService(t, { server: { corsOrigins: ['https://app.example'] } });
    assert.equal(
      (await raw(port, '/api/nothing-here', { method: 'POST', body: {}, headers: { origin: 'https://app.example' } }))
        .status,
      404,
    );
  });
});

describe('CORS', () => {
  it('is off by default: no CORS headers, not even for a preflight', async (t) => {
    const { port } = await startTestService(t);
    const get = await raw(port, '/api/status', { headers: { origin: 'https://app.example' } });
    assert.equal(get.headers['access-control-allow-origin'], undefined);
    const preflight = await raw(port, '/api/chat', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });

  it('answers a preflight and the request itself for a configured origin only, token or not', async (t) => {
    const { port } = await startTestService(t, { server: { corsOrigins: ['https://app.example'], token: 'tok' } });
    const preflight = await raw(port, '/api/chat', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example');
    assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
    const get = await raw(port, '/api/status', {
      headers: { origin: 'https://app.example', authorization: 'Bearer tok' },
    });
    assert.equal(get.status, 200);
    assert.equal(get.headers['access-control-allow-origin'], 'https://app.example');
    const other = await raw(port, '/api/chat', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });
});

describe('the body size limit', () => {
  const limited = { server: { maxBodyBytes: 1_000 } };

  it('refuses a body announced over the cap at once, without waiting for it', async (t) => {
    const { port } = await startTestService(t, limited);
    // 100 MB announced, nothing sent: an answer proves the body was not waited for.
    const response = await raw(port, '/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) },
      chunks: ['{'],
      keepOpen: true,
    });
    assert.equal(response.status, 413);
    assert.equal(response.json.error.code, 'body-too-large');
    assert.match(response.json.error.message, /1000 bytes/);
    // Not closed at once: the rest is read first, so that the answer is not lost to a reset (body-size-rule.test.ts).
  });

  it('refuses a chunked body once it passes the cap, without reading to its end', async (t) => {
    const { port } = await startTestService(t, limited);
    const response = await raw(port, '/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      chunks: ['x'.repeat(600), 'x'.repeat(600)],
      keepOpen: true,
    });
    assert.equal(response.status, 413);
    assert.equal(response.json.error.code, 'body-too-large');
  });

  it('refuses it on /v1 in the OpenAI shape, and lets a body at the cap through', async (t) => {
    const { port } = await startTestService(t, limited);
    const response = await raw(port, '/v1/chat/completions', { method: 'POST', body: 'x'.repeat(1_001) });
    assert.equal(response.status, 413);
    assert.equal(response.json.error.type, 'invalid_request_error');
    assert.equal(response.json.error.code, 'body-too-large');
    assert.equal((await raw(port, '/api/nothing-here', { method: 'POST', body: 'x'.repeat(1_000) })).status, 404);
    assert.equal(
      (await raw(port, '/api/nothing-here', { method: 'POST', chunks: ['x'.repeat(500), 'x'.repeat(500)] })).status,
      404,
    );
  });
});

describe('routes that are not there', () => {
  it('are 404 JSON, in the OpenAI shape under /v1', async (t) => {
    const { port } = await startTestService(t);
    const api = await raw(port, '/api/nope');
    assert.equal(api.status, 404);
    assert.deepEqual(Object.keys(api.json.error).sort(), ['code', 'message']);
    assert.equal(api.json.error.code, 'not-found');
    assert.match(api.json.error.message, /GET \/api\/nope/);
    const openai = await raw(port, '/v1/nope');
    assert.equal(openai.status, 404);
    assert.equal(openai.json.error.type, 'not_found_error');
  });
});

/** `promise`, or a failure naming `what` if it is not settled within 10 s. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not come within 10 s`)), 10_000)),
  );
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

describe('failures inside the service', () => {
  it('are a 500 with a stable code, the stack in the log and never in the answer', async (t) => {
    const { port, context } = await startTestService(t);
    await context.store.close(); // every store call now throws
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args.join(' '));
    try {
      const response = await raw(port, '/api/sessions');
      assert.equal(response.status, 500);
      assert.equal(response.json.error.code, 'internal');
      assert.doesNotMatch(response.text, /\bat |\.ts:\d+|database/i);
      assert.match(logged.join('\n'), /GET \/api\/sessions: .*\n\s+at /);
    } finally {
      console.error = original;
    }
  });
});

describe('binding', () => {
  it('refuses a non-loopback address without a token, before listening', async (t) => {
    const { context } = await startTestService(t);
    await assert.rejects(
      startServer(context, serverOptions(undefined, { host: '0.0.0.0', port: 0 }, {})),
      (error: unknown) => error instanceof ServeRefusedError && /without an access token/.test(error.message),
    );
  });

  it('closes with a chat still streaming: after the grace its connection is cut and its turn cancelled', async (t) => {
    const model = await modelServer(t, { hang: true });
    const { server, url } = await startTestService(t, { model: testModel(model) });
    const response = await fetch(`${url}api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello', session: 's' }),
    });
    const messages = sseMessages(response);
    assert.equal((await messages.next()).value?.event, 'session');
    const ended = (async () => {
      try {
        for (;;) if ((await messages.next()).done === true) return 'ended';
      } catch {
        return 'cut';
      }
    })();
    // Bounds, not timings: a close that waited for the model would never come.
    await within(server.close(), 'the close');
    assert.match(await within(ended, 'the end of the chat stream'), /^(ended|cut)$/);
  });

  it('closes idle keep-alive connections when it closes, and listens no more', async (t) => {
    const { server, port } = await startTestService(t);
    // A connection kept alive and idle is closed too.
    await raw(port, '/api/status', { headers: { connection: 'keep-alive' } });
    await server.close();
    await assert.rejects(raw(port, '/api/status'));
  });
});
