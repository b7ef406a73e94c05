import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { serverOptions } from './server-config.ts';
import { startTestService } from './server-test-support.ts';

/** Everything the server sends until it closes the connection, while `trickle` keeps sending a byte now and then. */
function trickle(port: number, head: string, drip: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    const timer = setInterval(() => socket.writable && socket.write(drip), 50);
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while a byte is on its way: what it said before is the answer.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      resolve(text);
    });
  });
}

describe('slow senders', () => {
  it('are closed with a 408 when the body trickles past body_timeout_ms', async (t) => {
    const { port } = await startTestService(t, { server: { bodyTimeoutMs: 400, headerTimeoutMs: 400 } });
    const text = await trickle(
      port,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      ' ',
    );
    assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    assert.equal(body.error.code, 'request-timeout');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /server\.body_timeout_ms/);
  });

  it('are closed with a 408 when the headers trickle past header_timeout_ms', async (t) => {
    const { port } = await startTestService(t, { server: { headerTimeoutMs: 300, bodyTimeoutMs: 60_000 } });
    const text = await trickle(port, `GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `, 'a');
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /"request-timeout"/);
  });

  it('do not stop a request that arrives in time', async (t) => {
    const { url } = await startTestService(t, { server: { headerTimeoutMs: 300, bodyTimeoutMs: 400 } });
    const response = await fetch(new URL('/v1/models', url));
    assert.equal(response.status, 200);
  });

  it('have limits a person would accept by default, and settings of their own', () => {
    const defaults = serverOptions(undefined, {}, {});
    assert.equal(defaults.headerTimeoutMs, 10_000);
    assert.equal(defaults.bodyTimeoutMs, 60_000);
    const set = serverOptions({ header_timeout_ms: 2_000, body_timeout_ms: 5_000 }, {}, {});
    assert.equal(set.headerTimeoutMs, 2_000);
    assert.equal(set.bodyTimeoutMs, 5_000);
  });
});
