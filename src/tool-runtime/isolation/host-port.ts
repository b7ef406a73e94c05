// Inside a tool host: the channel to Riverse, the same for a worker thread (its parent port) and
// a child process (frames on file descriptor 3; the first frame is the start-up data).
import { Socket } from 'node:net';
import * as workerThreads from 'node:worker_threads';
import { parentPort, Worker } from 'node:worker_threads';
import { encodeFrameParts, FrameReader } from './frame-codec.ts';
import { PARENT_DEATH_ENV } from './parent-death.ts';
import type { FromWorker, ToWorker, WorkerData } from './worker-messages.ts';

export interface HostPort {
  kind: 'process' | 'worker';
  data: WorkerData;
  /** `transfer`: buffers moved to Riverse with the message, not copied (a worker thread; a process writes them into its frame). */
  send(message: FromWorker, transfer?: ArrayBuffer[]): void;
  onMessage(listener: (message: ToWorker) => void): void;
}

/** Messages from Riverse are small (calls with capped arguments), but not without bound. */
const MAX_INCOMING_BYTES = 64 * 1024 * 1024;

export async function connectToHost(): Promise<HostPort> {
  // Both kinds: the first message is the start-up data (a spare host waits for it); messages that
  // come before anyone listens are kept, not dropped.
  const listeners: Array<(message: ToWorker) => void> = [];
  const queued: ToWorker[] = [];
  const { promise: started, resolve } = Promise.withResolvers<WorkerData>();
  let data: WorkerData | undefined;
  const receive = (value: unknown) => {
    if (data === undefined) resolve((data = value as WorkerData));
    else if (listeners.length === 0) queued.push(value as ToWorker);
    else for (const listener of listeners) listener(value as ToWorker);
  };
  const onMessage = (listener: (message: ToWorker) => void) => {
    listeners.push(listener);
    for (const message of queued.splice(0)) listener(message);
  };
  if (parentPort !== null) {
    const port = parentPort;
    port.on('message', receive);
    return {
      kind: 'worker',
      data: await started,
      send: (message, transfer) => port.postMessage(message, transfer?.filter(movable) ?? []),
      onMessage,
    };
  }
  const socket = new Socket({ fd: 3, readable: true, writable: true });
  // Riverse is gone (it exited or was killed): a tool process must not outlive it.
  socket.on('close', () => process.exit(0));
  socket.on('error', () => process.exit(0));
  // Where the kernel ends this process with its parent (parent-death.ts), no thread is needed.
  if (process.env[PARENT_DEATH_ENV] !== '1') watchParent();
  const reader = new FrameReader(MAX_INCOMING_BYTES, receive);
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  const startData = await started;
  // Riverse may have died before that was set up (or before the thread started).
  if (process.ppid !== startData.hostPid) process.exit(0);
  // Each message is written at once, never held for later: the tool code that runs next may spin.
  return {
    kind: 'process',
    data: startData,
    send: (message) => {
      // The frame's header and body written apart: the body is not copied once more behind a header.
      const [header, body] = encodeFrameParts(message);
      socket.write(header);
      socket.write(body);
    },
    onMessage,
  };
}

/** A buffer that may be moved: not one Node shares between Buffers (its pool), nor one already moved. */
function movable(buffer: ArrayBuffer): boolean {
  return buffer.byteLength > 0 && !workerThreads.isMarkedAsUntransferable(buffer);
}

/**
 * A tool that spins never gets to hear its channel close: a thread of its own checks once a second
 * that Riverse is still its parent, and ends the process when it is not (Riverse was killed).
 */
function watchParent(): void {
  const code = `
    const { workerData } = require('node:worker_threads');
    const tick = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      Atomics.wait(tick, 0, 0, 1000);
      if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL');
    }`;
  new Worker(code, {
    eval: true,
    workerData: process.ppid,
    resourceLimits: { maxOldGenerationSizeMb: 8 },
    stdout: true,
    stderr: true,
  }).unref();
}
