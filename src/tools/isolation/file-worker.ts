import { Worker } from 'node:worker_threads';
import type { AppConfig } from '../app-config.ts';
import type { Language } from '../tool-manifest.ts';
import { ToolCrash } from './tool-crash.ts';
import type { FromWorker, ToWorker, WorkerData, WorkerResult } from './worker-messages.ts';

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './tool-worker.ts' : './tool-worker.js', import.meta.url);

export interface FileWorkerLimits {
  /** V8 heap limit of the worker, in MB. */
  memoryMb: number;
  /** How long a cancelled call may take to stop before its worker is stopped, in ms. */
  graceMs: number;
}

export interface WorkerCall {
  tool: string;
  params: Record<string, unknown>;
  sessionId: string;
  language: Language;
  signal: AbortSignal;
}

interface Pending {
  resolve: (result: WorkerResult) => void;
  reject: (error: ToolCrash) => void;
  /** Set once the call is cancelled: settles when it has stopped, by itself or with its worker. */
  stopped?: PromiseWithResolvers<void>;
}

/**
 * One worker thread running the tools of one version of one file. Started on the first call; a
 * call that does not stop when cancelled, a crash, `process.exit` or the memory limit ends the
 * worker, failing only the calls it was running, and the next call starts a new one.
 */
export class FileWorker {
  readonly file: string;
  readonly version: number;
  readonly #source: string;
  readonly #config: AppConfig;
  readonly #limits: FileWorkerLimits;
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  /** Why the worker is being stopped by us, to tell its callers. */
  #stopping: string | undefined;
  /** Why the last worker ended. */
  #lastExit: string | undefined;
  onIdle: (() => void) | undefined;

  constructor(file: string, version: number, source: string, config: AppConfig, limits: FileWorkerLimits) {
    this.file = file;
    this.version = version;
    this.#source = source;
    this.#config = config;
    this.#limits = limits;
  }

  get busy(): boolean {
    return this.#pending.size > 0;
  }

  /** Starts the worker if needed and waits until its file is loaded; throws a ToolCrash if it dies first. */
  async ready(): Promise<Worker> {
    // A cancelled call still running may be spinning, and its worker be stopped at the end of the
    // grace period: wait for that, so that a new call does not join a worker about to be terminated.
    for (let cancelled = this.#cancelled(); cancelled !== undefined; cancelled = this.#cancelled()) await cancelled;
    const worker = this.#start();
    await this.#ready;
    if (this.#worker !== worker) throw new ToolCrash(this.#lastExit ?? 'its worker stopped while starting');
    return worker;
  }

  async call(call: WorkerCall): Promise<WorkerResult> {
    const worker = await this.ready();
    const id = ++this.#nextId;
    const done = new Promise<WorkerResult>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    worker.ref(); // an idle worker must not keep the process alive; a busy one must
    const abort = () => {
      const pending = this.#pending.get(id);
      if (pending !== undefined) pending.stopped ??= Promise.withResolvers<void>();
      const reason: unknown = call.signal.reason;
      this.#post(worker, { type: 'abort', id, ...(reason instanceof Error || reason instanceof DOMException ? { reason: { name: reason.name, message: reason.message } } : {}) });
      // A tool that ignores its signal (or spins) is stopped with its worker after the grace period.
      const timer = setTimeout(() => {
        if (this.#pending.has(id) && this.#worker === worker) void this.#stop(worker, 'it did not stop when cancelled, so its worker was stopped');
      }, this.#limits.graceMs);
      timer.unref();
    };
    if (call.signal.aborted) abort();
    else call.signal.addEventListener('abort', abort, { once: true });
    this.#post(worker, { type: 'call', id, tool: call.tool, params: call.params, sessionId: call.sessionId, language: call.language });
    try {
      return await done;
    } finally {
      call.signal.removeEventListener('abort', abort);
    }
  }

  /** Stops the worker; calls still running fail. */
  async close(): Promise<void> {
    if (this.#worker !== undefined) await this.#stop(this.#worker, 'the tool was unloaded');
  }

  /** Settles when the first cancelled call still running has stopped; undefined when there is none. */
  #cancelled(): Promise<void> | undefined {
    for (const pending of this.#pending.values()) if (pending.stopped !== undefined) return pending.stopped.promise;
    return undefined;
  }

  #start(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const data: WorkerData = { role: 'execute', config: this.#config, file: this.file, version: this.version, source: this.#source };
    const worker = new Worker(WORKER_URL, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: this.#limits.memoryMb }, stdout: false, stderr: false });
    this.#worker = worker;
    this.#stopping = undefined;
    this.#ready = new Promise<void>((resolve) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'result') this.#settle(message.id, message.result);
      });
      // A worker that dies before it is ready fails the calls waiting for it (below), then resolves.
      worker.once('exit', () => resolve());
    });
    let crash: string | undefined;
    worker.on('error', (error) => {
      crash =
        (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `its worker exceeded the memory limit of ${this.#limits.memoryMb} MB and was stopped`
          : `its worker crashed: ${error.message}`;
    });
    worker.once('exit', (code) => {
      if (this.#worker === worker) this.#worker = undefined;
      const reason = this.#stopping ?? crash ?? `its worker exited with code ${code} (process.exit?)`;
      this.#lastExit = reason;
      // Nobody is waiting to hear it (say, a timer threw after the call returned): say it here.
      if (this.#pending.size === 0 && this.#stopping === undefined) console.error(`[riverse] ${this.file}: ${reason}; a new worker starts on the next call`);
      for (const [id, pending] of this.#pending) {
        this.#pending.delete(id);
        pending.reject(new ToolCrash(reason));
        pending.stopped?.resolve();
      }
      this.onIdle?.();
    });
    return worker;
  }

  #settle(id: number, result: WorkerResult): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    pending.resolve(result);
    pending.stopped?.resolve();
    if (this.#pending.size === 0) {
      this.#worker?.unref();
      this.onIdle?.();
    }
  }

  #post(worker: Worker, message: ToWorker): void {
    try {
      worker.postMessage(message);
    } catch {
      // The worker is gone; its exit handler fails the call.
    }
  }

  async #stop(worker: Worker, reason: string): Promise<void> {
    this.#stopping = reason;
    await worker.terminate();
  }
}
