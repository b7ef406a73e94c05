import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { readablePieces } from './readable-pieces.ts';

const text = (piece: Uint8Array | undefined) => (piece === undefined ? undefined : Buffer.from(piece).toString());

describe('a stream read piece by piece through its events', () => {
  it('gives the pieces in order, then the end, and tells of the close once', async () => {
    const body = new PassThrough();
    let closes = 0;
    const next = readablePieces(body, () => closes++);
    body.write('one');
    assert.equal(text(await next()), 'one');
    const waiting = next(); // asked before the piece is there
    body.write('two');
    assert.equal(text(await waiting), 'two');
    body.end('three');
    assert.equal(text(await next()), 'three');
    assert.equal(await next(), undefined);
    assert.equal(await next(), undefined, 'the end stays the end');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closes, 1);
  });

  it('holds the stream back while a piece waits to be taken', async () => {
    const body = new PassThrough({ highWaterMark: 4 });
    const next = readablePieces(body);
    body.write('abcd');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(body.isPaused(), true, 'paused with a piece nobody took');
    assert.equal(text(await next()), 'abcd');
    body.end();
    assert.equal(await next(), undefined);
  });

  it('a failure is kept for the next read, after the pieces that came before it, and never thrown', async () => {
    const body = new PassThrough();
    const next = readablePieces(body);
    body.write('before');
    await new Promise((resolve) => setImmediate(resolve));
    body.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    await new Promise((resolve) => setImmediate(resolve)); // no uncaught error meanwhile
    assert.equal(text(await next()), 'before');
    await assert.rejects(next(), { code: 'ECONNRESET' });
  });

  it('a stream closed before its end is an error, as its own iterator says', async () => {
    const body = new PassThrough();
    const next = readablePieces(body);
    const waiting = next();
    body.destroy();
    await assert.rejects(waiting, { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
