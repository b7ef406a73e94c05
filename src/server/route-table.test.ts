import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { createServerApp } from './create-server-app.ts';
import { serverOptions } from './server-config.ts';
import { startTestService } from './server-test-support.ts';

// Hono's default router tries its RegExpRouter and, when one route does not fit it (a `:param`
// beside a fixed word at the same place, for one method), falls back without a word to its
// TrieRouter, which matched every /v1 turn at several times the cost (bench:serve saw p50 +0.5 ms
// and a third more garbage per turn). Keep every route in a shape the fast router takes.
test('every route of the service fits the fast router (RegExpRouter), and the app uses it', async (t) => {
  const { context } = await startTestService(t);
  const app = createServerApp(context, serverOptions(undefined, { host: '127.0.0.1', port: 0 }, {}));
  const router = new RegExpRouter<number>();
  for (const [index, route] of app.routes.entries()) {
    assert.doesNotThrow(
      () => router.add(route.method, route.path, index),
      `${route.method} ${route.path} does not fit the RegExpRouter`,
    );
  }
  assert.doesNotThrow(() => router.match('GET', '/api/status'));
  await app.request('http://127.0.0.1/api/status', { headers: { host: '127.0.0.1' } });
  assert.equal((app.router as { name: string }).name, 'SmartRouter + RegExpRouter');
});
