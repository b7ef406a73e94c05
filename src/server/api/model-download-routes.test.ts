// Where the default model's download lives: its route is the API's (not the dashboard's), and its
// state is made with the service's context, so that building the app changes nothing in it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServerApp } from '../create-server-app.ts';
import { dashboardRoutes } from '../dashboard/dashboard-routes.ts';
import { serverOptions } from '../server-config.ts';
import { raw, startTestService } from '../server-test-support.ts';
import { apiRoutes } from './api-routes.ts';

describe('the model download route', () => {
  it('is mounted by the API routes, not the dashboard', async (t) => {
    const { context } = await startTestService(t);
    const posts = (routes: { method: string; path: string }[]) =>
      routes.filter((route) => route.method === 'POST').map((route) => route.path);
    assert.ok(
      posts(apiRoutes(context).routes).includes('/model/download'),
      posts(apiRoutes(context).routes).join(', '),
    );
    assert.deepEqual(
      dashboardRoutes().routes.filter((route) => route.path.startsWith('/api')),
      [],
    );
  });

  it('reports the context’s download, the same however many apps are built on it', async (t) => {
    const { port, context } = await startTestService(t);
    const download = context.download;
    createServerApp(context, serverOptions(undefined, { host: '127.0.0.1', port: 0 }, {}));
    assert.equal(context.download, download);
    const status = (await raw(port, '/api/status')).json;
    assert.deepEqual(status.download, JSON.parse(JSON.stringify(download.state())));
    assert.equal(status.download.state, 'idle');
  });
});
