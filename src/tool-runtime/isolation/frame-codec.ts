// Messages between Riverse and a tool process: each a V8-serialized value behind a 4-byte length.
// Our own framing (not Node's IPC channel) so that Riverse can refuse a message before it holds it:
// a tool process that writes a frame larger than the cap is stopped, and nothing of it is kept.
import type { Writable } from 'node:stream';

// node:v8 is taken when the first frame is made, not imported: a command that starts no tool host
// (a cached `tools list`) does not load it and its heap utilities (~2.5 ms).
let v8: typeof import('node:v8') | undefined;
const serialize = (value: unknown) => (v8 ??= process.getBuiltinModule('node:v8')).serialize(value);
const deserialize = (body: Buffer) => (v8 ??= process.getBuiltinModule('node:v8')).deserialize(body);

const HEADER_BYTES = 4;

/** A frame as its header and its body, to write one after the other without copying the body. */
export function encodeFrameParts(value: unknown): [Buffer, Buffer] {
  const body = serialize(value);
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32BE(body.length, 0);
  return [header, body];
}

export function encodeFrame(value: unknown): Buffer {
  const body = serialize(value);
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, HEADER_BYTES);
  return frame;
}

/**
 * Writes values as frames to `socket`; those written in one tick go out together, in one system
 * call, when it ends (Riverse sends a loader a few files at a time; one write each cost a wake-up
 * each). Riverse's side only: in a host, the tool code that runs next may spin before the tick ends.
 */
export function frameWriter(socket: Writable): (value: unknown) => void {
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  return (value) => {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    socket.write(encodeFrame(value));
  };
}

export class FrameTooLarge extends Error {
  override name = 'FrameTooLarge';
  readonly bytes: number;
  constructor(bytes: number, maxBytes: number) {
    super(`it sent a message of ${formatBytes(bytes)}, more than the ${formatBytes(maxBytes)} allowed`);
    this.bytes = bytes;
  }
}

/** Splits a byte stream into frames; `push` throws FrameTooLarge as soon as a header announces too much. */
export class FrameReader {
  readonly #maxBytes: number;
  readonly #onFrame: (value: unknown) => void;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Length of the frame being read, once its header is in. */
  #expected: number | undefined;

  constructor(maxBytes: number, onFrame: (value: unknown) => void) {
    this.#maxBytes = maxBytes;
    this.#onFrame = onFrame;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    for (;;) {
      if (this.#expected === undefined) {
        if (this.#buffered < HEADER_BYTES) return;
        this.#expected = this.#take(HEADER_BYTES).readUInt32BE(0);
        if (this.#expected > this.#maxBytes) throw new FrameTooLarge(this.#expected, this.#maxBytes);
      }
      if (this.#buffered < this.#expected) return;
      const body = this.#take(this.#expected);
      this.#expected = undefined;
      this.#onFrame(deserialize(body));
    }
  }

  #take(bytes: number): Buffer {
    const all = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#buffered);
    const taken = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    this.#chunks = rest.length === 0 ? [] : [rest];
    this.#buffered = rest.length;
    return taken;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
