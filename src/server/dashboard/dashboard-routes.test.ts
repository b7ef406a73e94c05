// The dashboard's files over real HTTP: the page and every module it imports, with their content
// types, a strict Content-Security-Policy, ETag revalidation, and no token needed to load them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { raw, startTestService } from '../server-test-support.ts';

describe('the dashboard files', () => {
  it('serves the page and, transitively, every module and stylesheet it loads, each with its type', async (t) => {
    const { port } = await startTestService(t);
    const page = await raw(port, '/');
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(page.text, /\sstyle=|\son\w+=/, 'no inline style or handler');
    const seen = new Set<string>();
    const queue = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    assert.ok(queue.includes('/assets/app.js') && queue.includes('/assets/style.css'), queue.join(', '));
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const response = await raw(port, path);
      assert.equal(response.status, 200, path);
      const type = path.endsWith('.js')
        ? 'text/javascript; charset=utf-8'
        : path.endsWith('.css')
          ? 'text/css; charset=utf-8'
          : 'image/svg+xml';
      assert.equal(response.headers['content-type'], type, path);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      if (path.endsWith('.js'))
        for (const match of response.text.matchAll(/from '\.\/([\w-]+\.js)'/g)) queue.push(`/assets/${match[1]}`);
    }
    assert.ok(seen.size >= 12, [...seen].join(', '));
  });

  it('sends a policy that allows only its own scripts, styles and connections, and no framing', async (t) => {
    const { port } = await startTestService(t);
    const policy = String((await raw(port, '/')).headers['content-security-policy']);
    for (const rule of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ])
      assert.ok(policy.includes(rule), `${rule} in ${policy}`);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
  });

  it("lets a tool's pictures and sounds in as data: URLs, and nothing from another origin", async (t) => {
    const { port } = await startTestService(t);
    const rules = String((await raw(port, '/')).headers['content-security-policy']).split('; ');
    assert.ok(rules.includes("img-src 'self' data:"), rules.join('; '));
    assert.ok(rules.includes('media-src data:'), rules.join('; '));
    assert.doesNotMatch(rules.join('; '), /https?:|blob:/);
  });

  it('answers a repeated request with 304 while the file is the same', async (t) => {
    const { port } = await startTestService(t);
    const first = await raw(port, '/assets/app.js');
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]{20,}"$/);
    assert.equal(first.headers['cache-control'], 'no-cache');
    const again = await raw(port, '/assets/app.js', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal((await raw(port, '/assets/app.js', { headers: { 'if-none-match': '"other"' } })).status, 200);
    assert.notEqual((await raw(port, '/assets/style.css')).headers.etag, etag);
  });

  it('answers a file that is not there with the API 404, never a path outside the folder', async (t) => {
    const { port } = await startTestService(t);
    for (const path of [
      '/assets/nope.js',
      '/assets/..%2Fdashboard-routes.ts',
      '/assets/../package.json',
      '/assets/dashboard-static.test.ts',
    ]) {
      const response = await raw(port, path);
      assert.equal(response.status, 404, path);
      assert.equal(response.json.error.code, 'not-found');
    }
  });

  it('needs no token for the page and its files; the download does', async (t) => {
    const { port } = await startTestService(t, { server: { token: 'secret-token' } });
    assert.equal((await raw(port, '/')).status, 200);
    assert.equal((await raw(port, '/assets/app.js')).status, 200);
    assert.equal((await raw(port, '/api/model/download', { method: 'POST' })).status, 401);
  });
});
