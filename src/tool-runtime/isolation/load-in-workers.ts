import type { AppConfig } from '../../tools/app-config.ts';
import { said, type Diagnostic } from '../../core/diagnostic.ts';
import { phrase } from '../runtime-phrases.ts';
import { checkFileReport } from './check-host-report.ts';
import { loaderCount, loaderLimits, takeEarlyLoader } from './loader-pool.ts';
import { startHost, type HostEvents, type HostKind, type ToolHost } from './tool-host.ts';
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
const CHECK_EVERY = 32;
/** Files sent to a loader before it reports the first of them, so that it never waits for Riverse between files. */
const IN_FLIGHT = 16;
/**
 * More are sent only when this many have been reported, together: a loader makes the JavaScript of
 * files that arrive together one after another, while the transformer's code is still in the CPU's
 * caches (decision 021).
 */
const BATCH = 8;

/** `notStarted`: a file sent ahead that the loader never got to (it ended, or gave the file back). */
type Outcome = { info: FileInfo; changed: boolean } | { failure: Diagnostic } | { notStarted: true };

interface Job extends SourceFile {
  index: number;
  /** Already tried in a loader that something else may have disturbed: blamed if it fails again. */
  retried: boolean;
}

/** A file sent to a loader: `check` if the loader compares what files share after it. */
interface Sent {
  job: Job;
  seq: number;
  check: boolean;
  first: boolean;
  outcome: Promise<Outcome>;
}

/**
 * Imports tool files in loaders (worker threads or child processes, as tools will run), several
 * at once, and returns what each file holds, in order. No tool code runs in this thread. A file
 * whose top-level code hangs, exits or crashes takes down only its loader and gets a diagnostic;
 * one that changes what files share (built-ins, globals) ends its loader, so the files after it
 * load in a fresh one. A loader stuck on a file stops holding up the rest after 250 ms (the files
 * sent to it after that one go to others), and every file must be done by one deadline, so N
 * hanging files cost one time limit, not N.
 */
export async function loadInWorkers(
  files: readonly SourceFile[],
  config: AppConfig,
  version: number,
  options: LoadInWorkersOptions,
): Promise<FileInfo[]> {
  const results: FileInfo[] = new Array(files.length);
  const queue: Job[] = files.map((file, index) => ({ ...file, index, retried: false }));
  const concurrency = loaderCount(files.length);
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
    // Past the deadline no file can load: those still waiting fail at once, without a loader each.
    if (performance.now() >= deadline)
      for (const job of queue.splice(0))
        record(job, { file: job.file, tools: [], diagnostics: [timedOut(job.file, options.fileTimeoutMs)] });
    while (queue.length > 0 && moving() < concurrency && loaders.size < MAX_LOADERS) startLoader();
  };
  const startLoader = () => {
    const loader = new Loader(options, config, version);
    loaders.add(loader);
    // Loaded, but not yet known to have left what files share as it was: kept until the next check.
    let unchecked: Array<{ job: Job; info: FileInfo; first: boolean }> = [];
    // Sent and not yet reported, in the order the loader takes them: the first is the one it is loading.
    const sent: Sent[] = [];
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
    /** Files loaded, or to be, since the last check. */
    const sinceCheck = () => sent.reduce((count, entry) => (entry.check ? 0 : count + 1), unchecked.length);
    /** Sends files while there is room: a file tried again only where nothing unchecked comes before it. */
    const fill = () => {
      if (sent.length > IN_FLIGHT - BATCH) return;
      // No more than a fair share of what is left, so that a small load still spreads over the loaders.
      for (
        let share = Math.ceil(queue.length / concurrency);
        share > 0 && sent.length < IN_FLIGHT && !loader.stalled && queue.length > 0 && moving() <= concurrency;
        share--
      ) {
        if (queue[0]!.retried && (sent.length > 0 || unchecked.length > 0)) return;
        const job = queue.shift()!;
        const first = loader.sent === 0;
        // Comparing costs about 0.3 ms, so it is done once per batch (and after the last file); a file tried again is checked alone.
        const check = job.retried || first || sinceCheck() + 1 >= CHECK_EVERY || queue.length === 0;
        const { seq, outcome } = loader.load(job, deadline, options.fileTimeoutMs, check);
        sent.push({ job, seq, check, first, outcome });
      }
    };
    /** The files sent after the one loading go back to the queue, in order, for any loader. */
    const giveBack = () => {
      const rest = sent.splice(1);
      loader.drop(rest.map((entry) => entry.seq));
      queue.unshift(...rest.map((entry) => entry.job));
    };
    void (async () => {
      for (;;) {
        if (sent.length === 0) {
          // A file tried again must load where nothing unchecked came before it.
          if (
            queue[0]?.retried === true &&
            unchecked.length > 0 &&
            moving() <= concurrency &&
            !settleUnchecked(await loader.check(deadline))
          )
            break;
          fill();
          if (sent.length === 0) break;
        }
        const current = sent[0]!;
        const stopWatching = loader.onStall(STALL_MS, () => {
          loader.stalled = true;
          giveBack();
          pump();
        });
        const outcome = await current.outcome;
        stopWatching();
        loader.stalled = false;
        sent.shift();
        if ('notStarted' in outcome) {
          queue.unshift(current.job);
          break;
        }
        if ('info' in outcome) {
          loader.loaded++;
          unchecked.push({
            job: current.job,
            info: current.first ? outcome.info : withoutJavaScript(outcome.info),
            first: current.first,
          });
          if (current.check && !settleUnchecked(outcome.changed)) break;
          fill();
          continue;
        }
        // What loaded before it here was never checked: it goes to fresh loaders too — unless the
        // deadline has come, when there is no time left to load it again and it counts as loaded.
        if (outcome.failure.code === 'load-timeout') settleUnchecked(false);
        for (const earlier of unchecked) queue.unshift({ ...earlier.job, retried: true });
        unchecked = [];
        // A crash may come from a file this loader imported earlier (a timer or a promise of its
        // top-level code): the file is tried again in a new loader, and blamed only if it crashes that one too.
        if (!current.first && !current.job.retried && outcome.failure.code === 'load-crashed')
          queue.unshift({ ...current.job, retried: true });
        else record(current.job, { file: current.job.file, tools: [], diagnostics: [outcome.failure] });
        break; // this loader is gone
      }
      // Files sent after one that ended the loader, or after a check that found a change, load elsewhere.
      queue.unshift(...sent.splice(0).map((entry) => entry.job));
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

/** A file the loader was sent: reported in the order sent. */
interface Pending {
  seq: number;
  file: string;
  settle: (outcome: Outcome) => void;
}

/** One loader host and the files sent to it. */
class Loader {
  stalled = false;
  /** Files sent so far, and loaded so far. */
  sent = 0;
  loaded = 0;
  readonly #host: ToolHost;
  /** Sent and not yet reported, in order: the first is the one loading. */
  readonly #pending: Pending[] = [];
  /** Files given back: their reports, if the loader had already begun them, are not used. */
  readonly #dropped = new Set<number>();
  #deadlineTimer: NodeJS.Timeout | undefined;
  #exit: string | undefined;
  readonly #version: number;
  readonly #ready = Promise.withResolvers<void>();
  #checked: ((changed: boolean) => void) | undefined;

  constructor(options: LoadInWorkersOptions, config: AppConfig, version: number) {
    this.#version = version;
    const events: HostEvents = {
      message: (message: FromWorker) => {
        if (message.type === 'ready') this.#ready.resolve();
        if (message.type === 'checked') this.#checked?.(message.changed !== undefined);
        if (message.type !== 'loaded' || this.#dropped.delete(message.seq)) return;
        const head = this.#pending[0];
        const notLoading = 'its loader sent a report for a file it was not loading';
        const checked = head === undefined ? notLoading : checkFileReport(message.info, head.file);
        const info = typeof checked === 'string' || message.seq === head?.seq ? checked : notLoading;
        if (typeof info === 'string') {
          this.#fail(
            crashed(
              head?.file ?? '',
              said(phrase('load.forged-report', { why: info }), phrase('load.forged-report.hint')),
            ),
          );
          void this.#host.terminate();
        } else this.#settleHead({ info, changed: message.changed !== undefined });
      },
      exit: (why) => {
        this.#exit = why;
        this.#ready.resolve();
        this.#checked?.(false);
        this.#fail(crashDiagnostic(this.#pending[0]?.file ?? '', why));
      },
    };
    const data = { role: 'load' as const, config, hostPid: process.pid, maxResultChars: 0 };
    const ready = takeEarlyLoader(options.kind, options.memoryMb);
    if (ready === undefined) this.#host = startHost(options.kind, data, loaderLimits(options.memoryMb), events);
    else {
      this.#host = ready.host;
      Object.assign(ready.events, events);
      this.#host.ref();
      this.#host.init(data);
    }
  }

  /**
   * Sends a file to load after those already sent. Its outcome: what it holds, or a failure when the
   * loader ends while on it (`load-timeout` at the deadline; `limitMs` is what the message names),
   * or `notStarted` when the loader ends, or gives it back, before it began.
   */
  load(job: SourceFile, deadline: number, limitMs: number, check: boolean): { seq: number; outcome: Promise<Outcome> } {
    const seq = this.sent++;
    const { promise, resolve } = Promise.withResolvers<Outcome>();
    if (this.#exit !== undefined) {
      resolve(this.#pending.length === 0 ? { failure: crashDiagnostic(job.file, this.#exit) } : { notStarted: true });
      return { seq, outcome: promise };
    }
    this.#pending.push({ seq, file: job.file, settle: resolve });
    this.#deadlineTimer ??= setTimeout(
      () => {
        this.#fail(timedOut(this.#pending[0]?.file ?? job.file, limitMs));
        void this.#host.terminate();
      },
      Math.max(0, deadline - performance.now()),
    );
    this.#host.post({ type: 'load', seq, file: job.file, version: this.#version, source: job.source, check });
    return { seq, outcome: promise };
  }

  /** Takes back files sent but not begun: the loader skips them, and what it reports of them is not used. */
  drop(seqs: number[]): void {
    if (seqs.length === 0) return;
    for (const seq of seqs) {
      const index = this.#pending.findIndex((pending) => pending.seq === seq);
      if (index > 0) this.#pending.splice(index, 1)[0]!.settle({ notStarted: true });
      this.#dropped.add(seq);
    }
    this.#host.post({ type: 'drop', seqs });
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

  #settleHead(outcome: Outcome): void {
    this.#pending.shift()?.settle(outcome);
    if (this.#pending.length === 0) {
      clearTimeout(this.#deadlineTimer);
      this.#deadlineTimer = undefined;
    }
  }

  /** The loader is done for: the file it was loading fails with `failure`, the ones after it were not begun. */
  #fail(failure: Diagnostic): void {
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
    const [head, ...rest] = this.#pending.splice(0);
    head?.settle({ failure });
    for (const pending of rest) pending.settle({ notStarted: true });
  }
}

function timedOut(file: string, limitMs: number): Diagnostic {
  return {
    severity: 'error',
    code: 'load-timeout',
    file,
    ...said(phrase('load.timeout', { seconds: limitMs / 1000 }), phrase('load.timeout.hint')),
  };
}

function crashed(file: string, text: Pick<Diagnostic, 'message' | 'hint' | 'text'>): Diagnostic {
  return { severity: 'error', code: 'load-crashed', file, ...text };
}

function crashDiagnostic(file: string, why: string): Diagnostic {
  const exitCode = /exited with code (\d+)/.exec(why)?.[1];
  const text = /memory limit/.test(why)
    ? said(phrase('load.out-of-memory'), phrase('load.out-of-memory.hint'))
    : exitCode !== undefined
      ? said(phrase('load.exited', { code: exitCode }), phrase('load.exited.hint'))
      : said(phrase('load.crashed', { why }), phrase('load.crashed.hint'));
  return crashed(file, text);
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
