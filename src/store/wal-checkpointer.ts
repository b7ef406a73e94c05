// A busy service's SQLite file, checkpointed in a worker thread. SQLite copies its write-ahead log
// back into the database file inside the commit that takes the log past 1,000 pages: in
// `riverse serve` that was the traces' batch every second or so, and the copy and its fsyncs held
// the event loop 30–55 ms (every turn in flight waited; a batch without one takes ~5). A
// connection of its own in a worker makes the same PASSIVE checkpoints (they never wait for, nor
// block, the writer) on another thread; the main connection's own stays as a safety net, far
// enough out that it only runs if the worker stops keeping up (decision 019, addendum).
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

/** How often the worker checkpoints. */
const CHECKPOINT_EVERY_MS = 500;
/** The main connection's own checkpoint, only past this many pages of log (SQLite's default: 1,000). */
const FALLBACK_CHECKPOINT_PAGES = 16_000;

// CommonJS, evaluated: no file to find once the package is built. The worker's copy of
// node:sqlite says its ExperimentalWarning on its own thread; the CLI's output must stay clean.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
process.emitWarning = () => {};
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA synchronous = NORMAL');
const timer = setInterval(() => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or gone: the next one, or the main connection's own, catches up.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** A worker that checkpoints `file` until stopped; `db`, the main connection, keeps only a distant checkpoint of its own. */
export function startWalCheckpointer(db: DatabaseSync, file: string): { stop(): void } {
  db.exec(`PRAGMA wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, everyMs: CHECKPOINT_EVERY_MS } });
  // A store left open does not keep its process alive for this.
  worker.unref();
  // A worker that cannot run leaves the main connection's checkpoint to do the work, as before.
  worker.on('error', () => db.isOpen && db.exec('PRAGMA wal_autocheckpoint = 1000'));
  return {
    stop: () => worker.postMessage('stop'),
  };
}
