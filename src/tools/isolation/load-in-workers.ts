import { availableParallelism } from 'node:os';
import type { AppConfig } from '../app-config.ts';
import { said, type Diagnostic } from '../diagnostic.ts';
import { phrase } from '../phrase.ts';
import { checkFileReport } from './check-host-report.ts';
import { startHost, type HostKind, type ToolHost } from './tool-host.ts';
import type { FileInfo, FromWorker } from './worker-messages.ts';

/** A file and the text it held when it was read: what the loader (and later its executor) imports. */
export interface SourceFile {
  file: string;
  source: string;
}

export interface LoadInWorkersOptions {
  kind: HostKind;
  /**
   * How long loading may take (a file's top-level code and isAvailable()), in ms: one bound for
   * all the files together, since they load side by side.
   */
  fileTimeoutMs: number;
  memoryMb: number;
}

/** A loader busy with one file for this long no longer holds up the others: another loader starts. */
const STALL_MS = 250;
/** At most this many loaders at once, however many files hang. */
const MAX_LOADERS = 16;
/** A loader compares what files share after this many files (and after a loader's first, and any file tried again). */
const CHECK_EVERY = 16;
/** Loaders send manifests, which are small; a larger message stops the loader. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

type Outcome = { info: FileInfo; changed: boolean } | { failure: Diagnostic };

interface Job extends SourceFile {
  index: number;
  /** Already tried in a loader that something else may have disturbed: blamed if it fails again. */
  retried: boolean;
}

/**
 * Imports tool files in loaders (worker threads or child processes, as tools will run), several
 * at once, and returns what each file holds, in order. No tool code runs in this thread. A file
 * whose top-level code hangs, exits or crashes takes down only its loader and gets a diagnostic;
 * one that changes what files share (built-ins, globals) ends its loader, so the files after it
 * load in a fresh one. A loader stuck on a file stops holding up the rest after 250 ms, and every
 * file must be done by one deadline, so N hanging files cost one time limit, not N.
 */
export async function loadInWorkers(files: readonly SourceFile[], config: AppConfig, version: number, options: LoadInWorkersOptions): Promise<FileInfo[]> {
  const results: FileInfo[] = new Array(files.length);
  const queue: Job[] = files.map((file, index) => ({ ...file, index, retried: false }));
  const concurrency = Math.max(1, Math.min(availableParallelism(), 4, files.length));
  const loaders = new Set<Loader>();
  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  const deadline = performance.now() + options.fileTimeoutMs;
  let settled = 0;

  const record = (job: Job, info: FileInfo) => {
    results[job.index] = info;
    if (++settled === files.length) finish();
  };
  const moving = () => [...loaders].filter((loader) => !loader.stalled).length;
  const pump = () => {
    while (queue.length > 0 && moving() < concurrency && loaders.size < MAX_LOADERS) startLoader();
  };
  const startLoader = () => {
    const loader = new Loader(options, config, version);
    loaders.add(loader);
    // Loaded, but not yet known to have left what files share as it was: kept until the next check.
    let unchecked: Array<{ job: Job; info: FileInfo; first: boolean }> = [];
    /** After a check: keeps the files since the last one, or sends them to fresh loaders to be loaded one by one. Returns whether the loader can go on. */
    const settleUnchecked = (changed: boolean): boolean => {
      const batch = unchecked;
      unchecked = [];
      // The loader's first file alone, checked right after it, loaded in a clean loader: its report holds, whatever it changed.
      const alone = batch.length === 1 && batch[0]!.first;
      for (const { job, info } of batch) {
        if (!changed || alone || job.retried) record(job, info);
        else queue.unshift({ ...job, retried: true });
      }
      return !changed;
    };
    void (async () => {
      for (let job = queue.shift(); job !== undefined; job = moving() <= concurrency ? queue.shift() : undefined) {
        // A file tried again must load where nothing unchecked came before it.
        if (job.retried && unchecked.length > 0 && !settleUnchecked(await loader.check(deadline))) {
          queue.unshift(job);
          break;
        }
        const stopWatching = loader.onStall(STALL_MS, () => {
          loader.stalled = true;
          pump();
        });
        const first = loader.loaded === 0;
        // Comparing costs about 0.3 ms, so it is done once per batch; a file tried again is checked alone.
        const check = job.retried || first || unchecked.length + 1 >= CHECK_EVERY;
        const outcome = await loader.load(job, deadline, options.fileTimeoutMs, check);
        stopWatching();
        loader.stalled = false;
        if ('info' in outcome) {
          loader.loaded++;
          unchecked.push({ job, info: first ? outcome.info : withoutJavaScript(outcome.info), first });
          if (check && !settleUnchecked(outcome.changed)) break;
          continue;
        }
        // What loaded before it here was never checked: it goes to fresh loaders too — unless the
        // deadline has come, when there is no time left to load it again and it counts as loaded.
        if (outcome.failure.code === 'load-timeout') settleUnchecked(false);
        for (const earlier of unchecked) queue.unshift({ ...earlier.job, retried: true });
        unchecked = [];
        // A crash may come from a file this loader imported earlier (a timer or a promise of its
        // top-level code): the file is tried again in a new loader, and blamed only if it crashes that one too.
        if (!first && !job.retried && outcome.failure.code === 'load-crashed') queue.unshift({ ...job, retried: true });
        else record(job, { file: job.file, tools: [], diagnostics: [outcome.failure] });
        break; // this loader is gone
      }
      // The last batch: checked before it counts (at the deadline, it counts as loaded).
      if (unchecked.length > 0) settleUnchecked(await loader.check(deadline));
      loaders.delete(loader);
      await loader.close();
      if (settled < files.length) pump();
    })();
  };

  if (files.length === 0) return [];
  pump();
  await finished;
  await Promise.all([...loaders].map((loader) => loader.close()));
  return results;
}

/** One loader host and the file it is loading. */
class Loader {
  stalled = false;
  /** Files loaded so far. */
  loaded = 0;
  readonly #host: ToolHost;
  #waiting: ((outcome: Outcome) => void) | undefined;
  #file = '';
  #exit: string | undefined;
  readonly #version: number;
  readonly #ready = Promise.withResolvers<void>();
  #checked: ((changed: boolean) => void) | undefined;

  constructor(options: LoadInWorkersOptions, config: AppConfig, version: number) {
    this.#version = version;
    this.#host = startHost(options.kind, { role: 'load', config, hostPid: process.pid, maxResultChars: 0 }, { memoryMb: options.memoryMb, maxMessageBytes: MAX_MESSAGE_BYTES }, {
      message: (message: FromWorker) => {
        if (message.type === 'ready') this.#ready.resolve();
        if (message.type === 'checked') this.#checked?.(message.changed !== undefined);
        if (message.type !== 'loaded') return;
        const info = checkFileReport(message.info, this.#file);
        if (typeof info === 'string') {
          this.#settle({ failure: { severity: 'error', code: 'load-crashed', file: this.#file, ...said(phrase('load.forged-report', { why: info }), phrase('load.forged-report.hint')) } });
          void this.#host.terminate();
        } else this.#settle({ info, changed: message.changed !== undefined });
      },
      exit: (why) => {
        this.#exit = why;
        this.#ready.resolve();
        this.#checked?.(false);
        this.#settle({ failure: crashDiagnostic(this.#file, why) });
      },
    });
  }

  /** Loads the file, or fails it with `load-timeout` at the deadline (`limitMs` is what the message names). */
  load(job: Job, deadline: number, limitMs: number, check: boolean): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      if (this.#exit !== undefined) return resolve({ failure: crashDiagnostic(job.file, this.#exit) });
      this.#file = job.file;
      const timer = setTimeout(() => {
        this.#settle({
          failure: { severity: 'error', code: 'load-timeout', file: job.file, ...said(phrase('load.timeout', { seconds: limitMs / 1000 }), phrase('load.timeout.hint')) },
        });
        void this.#host.terminate();
      }, Math.max(0, deadline - performance.now()));
      this.#waiting = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      this.#host.post({ type: 'load', file: job.file, version: this.#version, source: job.source, check });
    });
  }

  /** Whether what files share changed since the loader began; false when it cannot answer by the deadline (it ended, or hangs). */
  check(deadline: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (this.#exit !== undefined) return resolve(false);
      const timer = setTimeout(() => finish(false), Math.max(0, deadline - performance.now()));
      const finish = (changed: boolean) => {
        clearTimeout(timer);
        this.#checked = undefined;
        resolve(changed);
      };
      this.#checked = finish;
      this.#host.post({ type: 'check' });
    });
  }

  /**
   * Calls `stalled` if the file being loaded takes more than `ms` — counted from when the loader is
   * ready, since its own start (slow on a busy machine) is no stall. Returns a function that stops it.
   */
  onStall(ms: number, stalled: () => void): () => void {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    void this.#ready.promise.then(() => {
      if (!stopped) timer = setTimeout(stalled, ms);
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  close(): Promise<void> {
    return this.#host.terminate();
  }

  #settle(outcome: Outcome): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(outcome);
  }
}

function crashDiagnostic(file: string, why: string): Diagnostic {
  const exitCode = /exited with code (\d+)/.exec(why)?.[1];
  const text = /memory limit/.test(why)
    ? said(phrase('load.out-of-memory'), phrase('load.out-of-memory.hint'))
    : exitCode !== undefined
      ? said(phrase('load.exited', { code: exitCode }), phrase('load.exited.hint'))
      : said(phrase('load.crashed', { why }), phrase('load.crashed.hint'));
  return { severity: 'error', code: 'load-crashed', file, ...text };
}

/**
 * The JavaScript a loader made of a file is run in Riverse's own process (for a trusted tool), so
 * it is taken only from a loader that ran no other file's code first: one that did could have
 * forged it. Without it, Riverse strips the file's types itself.
 */
function withoutJavaScript(info: FileInfo): FileInfo {
  if (info.javascript === undefined) return info;
  const { javascript: _javascript, ...rest } = info;
  return rest;
}
