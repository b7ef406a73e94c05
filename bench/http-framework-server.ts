// One server of the HTTP framework benchmark (bench/http-framework.ts), in its own process:
// `node bench/http-framework-server.ts <kind>` prints its port and serves GET /json and POST /echo.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bodySizeRule } from '../src/server/body-size-rule.ts';
import { hostRule } from '../src/server/host-rule.ts';
import { originRule } from '../src/server/origin-rule.ts';
import { tokenRule } from '../src/server/token-rule.ts';

const PAYLOAD = {
  ok: true,
  tools: Array.from({ length: 8 }, (_, index) => ({ name: `tool_${index}`, available: index % 3 !== 0 })),
};
const kind = process.argv[2];
const listening = (port: number) => process.stdout.write(`${port}\n`);

if (kind === 'node') {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PAYLOAD));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')))),
    );
  });
  server.listen(0, '127.0.0.1', () => listening((server.address() as AddressInfo).port));
} else if (kind === 'hono' || kind === 'hono-rules') {
  const app = new Hono();
  if (kind === 'hono-rules') {
    // What every request of `riverse serve` passes before its route (create-server-app.ts).
    app.use(hostRule({ host: '127.0.0.1', allowedHosts: [] }));
    app.use(tokenRule('bench-token'));
    app.use(originRule([]));
    app.use(bodySizeRule(1_048_576));
  }
  app.get('/json', (c) => c.json(PAYLOAD));
  app.post('/echo', async (c) => c.json(await c.req.json()));
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => listening(info.port));
} else if (kind === 'fastify') {
  const { default: fastify } = await import('fastify');
  const app = fastify({ bodyLimit: 1_048_576 });
  app.get('/json', async () => PAYLOAD);
  app.post('/echo', async (request) => request.body);
  await app.listen({ host: '127.0.0.1', port: 0 });
  listening((app.server.address() as AddressInfo).port);
} else {
  throw new Error(`unknown server kind ${kind}; expected node, hono, hono-rules or fastify`);
}
