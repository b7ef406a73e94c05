import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { startTestService } from './server-test-support.ts';

const run = promisify(execFile);
const MAX = 64 * 1024;
/** Far over the cap, and more than a socket's buffers hold: the client is still sending when the answer comes. */
const BIG = 'x'.repeat(8 * 1024 * 1024);

/** node:http, with a body sent whole (Content-Length) or in chunks (chunked). */
function nodeHttp(port: number, path: string, chunked: boolean): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = String(BIG.length);
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (chunked) {
      for (let i = 0; i < BIG.length; i += 65_536) request.write(BIG.slice(i, i + 65_536));
      request.end();
    } else request.end(BIG);
  });
}

describe('a body over max_body_bytes', () => {
  for (const path of ['/v1/chat/completions', '/api/chat']) {
    it(`reaches fetch as the 413, every time (${path})`, async (t) => {
      const { url } = await startTestService(t, { server: { maxBodyBytes: MAX } });
      for (let i = 0; i < 10; i++) {
        const response = await fetch(new URL(path, url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: BIG,
        });
        assert.equal(response.status, 413, `try ${i}`);
        assert.equal(((await response.json()) as any).error.code, 'body-too-large');
      }
    });
  }

  it('reaches the openai client as its 413 error, which it does not send again', async (t) => {
    const { url } = await startTestService(t, { server: { maxBodyBytes: MAX } });
    let sent = 0;
    const client = new OpenAI({
      baseURL: `${url}v1`,
      apiKey: 'unused',
      fetch: (input, init) => (sent++, fetch(input, init)),
    });
    const error = await client.chat.completions
      .create({ model: 'riverse', messages: [{ role: 'user', content: BIG }] })
      .then(
        () => assert.fail('answered'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof OpenAI.APIError, String(error));
    assert.equal(error.status, 413);
    assert.equal(error.code, 'body-too-large');
    assert.equal(sent, 1);
  });

  it('reaches fetch as the 413 when the body streams in (chunked)', async (t) => {
    const { url } = await startTestService(t, { server: { maxBodyBytes: MAX } });
    for (let i = 0; i < 5; i++) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(BIG);
          for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(bytes.subarray(at, at + 65_536));
          controller.close();
        },
      });
      const response = await fetch(new URL('/v1/chat/completions', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(response.status, 413, `try ${i}`);
      assert.equal(((await response.json()) as any).error.code, 'body-too-large');
    }
  });

  it('reaches node:http as the 413, whole or chunked', async (t) => {
    const { port } = await startTestService(t, { server: { maxBodyBytes: MAX } });
    for (let i = 0; i < 5; i++) {
      for (const chunked of [false, true]) {
        const response = await nodeHttp(port, '/v1/chat/completions', chunked);
        assert.equal(response.status, 413, `try ${i}, chunked: ${chunked}`);
        assert.equal(response.json.error.code, 'body-too-large');
      }
    }
  });

  it('reads the rest of a refused body while the client still sends it, and keeps the connection', async (t) => {
    const { port } = await startTestService(t, { server: { maxBodyBytes: MAX } });
    const socket = await open(port);
    const body = 'x'.repeat(2 * 1024 * 1024);
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 1000)}`,
    );
    const first = await answer(socket);
    assert.match(first, /^HTTP\/1\.1 413 /);
    assert.match(first, /"body-too-large"/);
    // The client only now sends the rest, as a slow uplink would: it is read, not reset.
    await new Promise<void>((resolve, reject) =>
      socket.write(body.slice(1000), (error) => (error ? reject(error) : resolve())),
    );
    socket.write(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    assert.match(await answer(socket), /^HTTP\/1\.1 200 [\s\S]*"riverse"/);
    socket.destroy();
  });

  it('closes a connection the client asked to close only once the rest has come', async (t) => {
    const { port } = await startTestService(t, { server: { maxBodyBytes: MAX } });
    const socket = await open(port);
    const body = 'x'.repeat(2 * 1024 * 1024);
    socket.write(
      `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 1000)}`,
    );
    assert.match(await answer(socket), /^HTTP\/1\.1 413 /);
    await new Promise<void>((resolve, reject) =>
      socket.write(body.slice(1000), (error) => (error ? reject(error) : resolve())),
    );
    // All of it was read: the server ends the connection cleanly (a FIN, no reset).
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('end', resolve);
      socket.resume();
    });
    socket.destroy();
  });

  it('answers a client that asked to close and sent its whole body at once, then closes', async (t) => {
    const { port } = await startTestService(t, { server: { maxBodyBytes: MAX } });
    for (const chunked of [false, true]) {
      const socket = await open(port);
      const body = 'x'.repeat(MAX + 10);
      const framing = chunked
        ? `Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
        : `Content-Length: ${body.length}\r\n\r\n${body}`;
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n${framing}`);
      assert.match(await answer(socket), /^HTTP\/1\.1 413 /, `chunked: ${chunked}`);
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.once('end', resolve);
        socket.resume();
      });
      socket.destroy();
    }
  });

  it('reaches curl as the 413', async (t) => {
    const { port, dir } = await startTestService(t, { server: { maxBodyBytes: MAX } });
    const { writeFile } = await import('node:fs/promises');
    const file = `${dir}/big.json`;
    await writeFile(file, BIG);
    for (let i = 0; i < 5; i++) {
      const { stdout } = await run('curl', [
        '-sS',
        '-o',
        '-',
        '-w',
        '\n%{http_code}',
        '-H',
        'content-type: application/json',
        '--data-binary',
        `@${file}`,
        `http://127.0.0.1:${port}/v1/chat/completions`,
      ]);
      const lines = stdout.trimEnd().split('\n');
      assert.equal(lines.at(-1), '413', `try ${i}: ${stdout.slice(0, 200)}`);
      assert.equal(JSON.parse(lines.slice(0, -1).join('\n')).error.code, 'body-too-large');
    }
  });
});

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The next whole answer on the socket (its Content-Length read), as text. */
function answer(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (end !== -1 && length !== null && text.length >= end + 4 + Number(length[1])) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed after ${JSON.stringify(text.slice(0, 200))}`)));
  });
}
