import type { AppConfig } from '../../tools/app-config.ts';
import {
  NO_EARLIER_PARTS,
  NO_MODEL_TO_SAMPLE,
  NO_ONE_TO_ASK,
  NO_ROOTS,
  type AskPerson,
  type FindResultPart,
  type ToolContext,
} from '../../tools/tool-context.ts';
import type { ContentPart } from '../../tools/content-part.ts';
import type { Language } from '../../core/language.ts';
import {
  checkAskReport,
  checkCallReport,
  checkNeedReport,
  checkPartRequest,
  checkReport,
} from './check-host-report.ts';
import type { ReportLog, ReportProgress } from '../../tools/call-report.ts';
import { startHost, type HostEvents, type HostKind, type HostLimits, type ToolHost } from './tool-host.ts';
import { ToolCrash } from './tool-crash.ts';
import type { FromWorker, WorkerResult } from './worker-messages.ts';

export interface FileWorkerLimits extends HostLimits {
  /** How long a cancelled call may take to stop before its host is stopped, in ms. */
  graceMs: number;
  /** Longest `data`/`error` of a result, cut inside the host. */
  maxResultChars: number;
  /** The most a result's parts and `structured` hold in all, in bytes, cut inside the host. */
  maxResultBytes?: number;
}

export interface WorkerCall {
  tool: string;
  params: Record<string, unknown>;
  sessionId: string;
  language: Language;
  signal: AbortSignal;
  /** The call's `context.ask`, which the tool reaches from its host by message. */
  ask?: AskPerson;
  /** The call's `context.sample` and `context.roots`, reached the same way. */
  sample?: ToolContext['sample'];
  roots?: ToolContext['roots'];
  /** The call's `context.resultPart`, likewise. */
  resultPart?: FindResultPart;
  /** The call's `context.progress` and `context.log` on Riverse's side (they throttle again). */
  progress?: ReportProgress;
  log?: ReportLog;
  /** Told when this call started the host (a fresh one, or a spare taken), with the ms until it had loaded the file. */
  hostStarted?: ((ms: number) => void) | undefined;
}

/** A host started ahead, and the events object it reports to (filled in by whoever takes it). */
export interface SpareHost {
  host: ToolHost;
  events: HostEvents;
}

interface Pending {
  ask: AskPerson;
  sample: ToolContext['sample'];
  roots: ToolContext['roots'];
  resultPart: FindResultPart;
  progress?: ReportProgress;
  log?: ReportLog;
  resolve: (result: WorkerResult) => void;
  reject: (error: ToolCrash) => void;
  /** Set once the call is cancelled: settles when it has stopped, by itself or with its host. */
  stopped?: PromiseWithResolvers<void>;
}

/**
 * The host (a worker thread or a child process) running the tools of one version of one file.
 * Started by the first call — its start counts toward that call's time limit and obeys its
 * cancellation. A call that does not stop when cancelled, a crash, `process.exit` or the memory
 * limit ends the host, failing only the calls it was running, and the next call starts a new one.
 */
export class FileWorker {
  readonly file: string;
  readonly version: number;
  readonly #kind: HostKind;
  readonly #source: string;
  readonly #config: AppConfig;
  readonly #limits: FileWorkerLimits;
  #host: ToolHost | undefined;
  /** Settles when the current host has loaded the file (or ended). */
  #ready: Promise<void> | undefined;
  #isReady = false;
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  /** Why the host is being stopped by us, to tell its callers. */
  #stopping: string | undefined;
  onIdle: (() => void) | undefined;
  /** Hands over a spare host of that kind and memory limit, if one is ready. */
  spare: ((kind: HostKind, memoryMb: number) => SpareHost | undefined) | undefined;

  constructor(
    kind: HostKind,
    file: string,
    version: number,
    source: string,
    config: AppConfig,
    limits: FileWorkerLimits,
  ) {
    this.#kind = kind;
    this.file = file;
    this.version = version;
    this.#source = source;
    this.#config = config;
    this.#limits = limits;
  }

  get busy(): boolean {
    return this.#pending.size > 0;
  }

  async call(call: WorkerCall): Promise<WorkerResult> {
    // A cancelled call still running may be spinning, and its host be stopped at the end of the
    // grace period: wait for that, so that a new call does not join a host about to be stopped.
    for (let cancelled = this.#cancelled(); cancelled !== undefined; cancelled = this.#cancelled()) await cancelled;
    const fresh = this.#host === undefined;
    const startedAt = fresh && call.hostStarted !== undefined ? performance.now() : 0;
    const host = this.#start();
    const id = ++this.#nextId;
    const done = new Promise<WorkerResult>((resolve, reject) =>
      this.#pending.set(id, {
        resolve,
        reject,
        ask: call.ask ?? NO_ONE_TO_ASK,
        sample: call.sample ?? NO_MODEL_TO_SAMPLE,
        roots: call.roots ?? NO_ROOTS,
        resultPart: call.resultPart ?? NO_EARLIER_PARTS,
        ...(call.progress === undefined ? {} : { progress: call.progress }),
        ...(call.log === undefined ? {} : { log: call.log }),
      }),
    );
    host.ref(); // an idle host must not keep the process alive; a busy one must
    const abort = () => {
      const pending = this.#pending.get(id);
      if (pending === undefined) return;
      pending.stopped ??= Promise.withResolvers<void>();
      const started = this.#isReady;
      const reason: unknown = call.signal.reason;
      if (started)
        host.post({
          type: 'abort',
          id,
          ...(reason instanceof Error || reason instanceof DOMException
            ? { reason: { name: reason.name, message: reason.message } }
            : {}),
        });
      // A tool that ignores its signal (or spins, or whose file hangs while loading) is stopped with its host after the grace period.
      const timer = setTimeout(() => {
        if (!this.#pending.has(id) || this.#host !== host) return;
        void this.#stop(
          host,
          started
            ? `it did not stop when cancelled, so its ${this.#kind} was stopped`
            : `its file did not finish loading before the call ended, so its ${this.#kind} was stopped`,
        );
      }, this.#limits.graceMs);
      timer.unref();
    };
    if (call.signal.aborted) abort();
    else call.signal.addEventListener('abort', abort, { once: true });
    try {
      await this.#ready;
      if (fresh && this.#isReady && call.hostStarted !== undefined) {
        try {
          call.hostStarted(Math.round((performance.now() - startedAt) * 10) / 10);
        } catch {
          // the listener's fault is not the call's
        }
      }
      if (this.#host === host && this.#pending.has(id))
        host.post({
          type: 'call',
          id,
          tool: call.tool,
          params: call.params,
          sessionId: call.sessionId,
          language: call.language,
        });
      return await done;
    } finally {
      call.signal.removeEventListener('abort', abort);
    }
  }

  /** Stops the host; calls still running fail. */
  async close(): Promise<void> {
    if (this.#host !== undefined) await this.#stop(this.#host, 'the tool was unloaded');
  }

  /** Settles when the first cancelled call still running has stopped; undefined when there is none. */
  #cancelled(): Promise<void> | undefined {
    for (const pending of this.#pending.values()) if (pending.stopped !== undefined) return pending.stopped.promise;
    return undefined;
  }

  #start(): ToolHost {
    if (this.#host !== undefined) return this.#host;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#ready = promise;
    this.#isReady = false;
    this.#stopping = undefined;
    const data = {
      role: 'execute' as const,
      config: this.#config,
      file: this.file,
      version: this.version,
      source: this.#source,
      hostPid: process.pid,
      maxResultChars: this.#limits.maxResultChars,
      ...(this.#limits.maxResultBytes === undefined ? {} : { maxResultBytes: this.#limits.maxResultBytes }),
    };
    const events: HostEvents = {
      message: (message: FromWorker) => {
        if (message.type === 'ready') {
          this.#isReady = true;
          resolve();
        } else if (message.type === 'result') this.#settle(message.id, checkCallReport(message.result));
        else if (message.type === 'ask') this.#ask(host, message);
        else if (message.type === 'sample' || message.type === 'roots') this.#need(host, message);
        else if (message.type === 'part') this.#part(host, message);
        else if (message.type === 'progress' || message.type === 'log') this.#report(message);
      },
      exit: (why) => {
        if (this.#host === host) this.#host = undefined;
        const reason = this.#stopping ?? why;
        // Nobody is waiting to hear it (say, a timer threw after the call returned): say it here.
        if (this.#pending.size === 0 && this.#stopping === undefined)
          console.error(`[riverse] ${this.file}: ${reason}; a new one starts on the next call`);
        for (const [id, pending] of this.#pending) {
          this.#pending.delete(id);
          pending.reject(new ToolCrash(reason));
          pending.stopped?.resolve();
        }
        resolve(); // a host that ended before it was ready has failed its calls (above)
        this.onIdle?.();
      },
    };
    // A spare host started ahead (ToolWorkers.prewarm) has Riverse's side loaded already: only the file's import is left.
    const spare = this.spare?.(this.#kind, this.#limits.memoryMb);
    let host: ToolHost;
    if (spare === undefined) host = startHost(this.#kind, data, this.#limits, events);
    else {
      host = spare.host;
      Object.assign(spare.events, events);
      host.init(data);
    }
    this.#host = host;
    return host;
  }

  /** A question from a call's tool, put to the person; the answer goes back to the host if the call still runs there. */
  #ask(host: ToolHost, message: unknown): void {
    const checked = checkAskReport(message);
    const pending = checked === undefined ? undefined : this.#pending.get(checked.id);
    if (checked === undefined || pending === undefined) return;
    const { id, seq, ...question } = checked;
    void pending.ask(question.question, question).then(
      (answer) => {
        if (this.#host === host && this.#pending.has(id)) host.post({ type: 'answer', id, seq, answer });
      },
      () => {
        if (this.#host === host && this.#pending.has(id))
          host.post({ type: 'answer', id, seq, answer: { answered: false, reason: 'unavailable' } });
      },
    );
  }

  /** A call's request for a model's reply or its roots, checked again (tool code can forge it); the reply, or why there is none, goes back. */
  #need(host: ToolHost, message: unknown): void {
    const need = checkNeedReport(message);
    const pending = need === undefined ? undefined : this.#pending.get(need.id);
    if (need === undefined || pending === undefined) return;
    const { id, seq } = need;
    const reply = (answer: { value?: unknown; failed?: { name: string; message: string } }) => {
      if (this.#host === host && this.#pending.has(id)) host.post({ type: 'reply', id, seq, ...answer });
    };
    const asked = need.type === 'sample' ? pending.sample(need.request) : pending.roots(need.options);
    void asked.then(
      (value) => reply({ value }),
      (error: unknown) =>
        reply({
          failed:
            error instanceof Error
              ? { name: error.name, message: error.message }
              : { name: 'Error', message: String(error) },
        }),
    );
  }

  /** A call's tool asks for a part of an earlier result (`context.resultPart`); the part (or none) goes back if the call still runs there. */
  #part(host: ToolHost, message: unknown): void {
    const asked = checkPartRequest(message);
    const pending = asked === undefined ? undefined : this.#pending.get(asked.id);
    if (asked === undefined || pending === undefined) return;
    const { id, seq } = asked;
    const reply = (part: ContentPart | undefined) => {
      if (this.#host === host && this.#pending.has(id))
        host.post({ type: 'part-answer', id, seq, ...(part === undefined ? {} : { part }) });
    };
    void pending.resultPart(asked.callId, asked.index).then(reply, () => reply(undefined));
  }

  /** A progress report or log line of a running call, checked again (tool code can forge it) and passed on. */
  #report(message: unknown): void {
    const report = checkReport(message);
    const pending = report === undefined ? undefined : this.#pending.get(report.id);
    if (report === undefined || pending === undefined) return;
    try {
      if (report.type === 'progress') pending.progress?.(report.progress, report.total, report.message);
      else pending.log?.(report.level, report.message);
    } catch {
      // Checked already: a throw here is a listener's, and not the call's business.
    }
  }

  #settle(id: number, result: WorkerResult): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    pending.resolve(result);
    pending.stopped?.resolve();
    if (this.#pending.size === 0) {
      this.#host?.unref();
      this.onIdle?.();
    }
  }

  async #stop(host: ToolHost, reason: string): Promise<void> {
    this.#stopping = reason;
    await host.terminate();
  }
}
