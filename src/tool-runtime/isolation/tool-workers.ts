import type { AppConfig } from '../../tools/app-config.ts';
import { FileWorker, type FileWorkerLimits, type SpareHost, type WorkerCall } from './file-worker.ts';
import type { SourceFile } from './load-in-workers.ts';
import { DEFAULT_HOST_MEMORY_MB, spawnHost, type HostEvents, type HostKind, type HostLimits } from './tool-host.ts';
import type { WorkerResult } from './worker-messages.ts';
import { DEFAULT_MAX_RESULT_BYTES } from '../../tools/tool-result.ts';

export interface ToolWorkersOptions extends FileWorkerLimits {
  /** A host with no call for this long is stopped (and started again on the next call). */
  idleMs: number;
}

const DEFAULT_WORKER_OPTIONS: ToolWorkersOptions = {
  memoryMb: DEFAULT_HOST_MEMORY_MB,
  graceMs: 1_000,
  idleMs: 5 * 60_000,
  maxResultChars: 20_000,
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  maxMessageBytes: 8 * 1024 * 1024,
};

/** The defaults filled in; the message cap grown to what a result may need (data and error of max_result_chars each, up to 2 bytes a character as V8 writes them). */
function resolvedOptions(options: Partial<ToolWorkersOptions>): ToolWorkersOptions {
  const merged = { ...DEFAULT_WORKER_OPTIONS, ...options };
  // The parts' bytes too (V8 writes bytes and base64 text a byte each), and room for the frame around them.
  const parts = merged.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  return {
    ...merged,
    maxMessageBytes: Math.max(merged.maxMessageBytes, 4 * merged.maxResultChars + parts + 1024 * 1024),
  };
}

/** A host started ahead of need, with what it was started with; `ended` once it is gone unused. */
interface Spare extends SpareHost {
  kind: HostKind;
  limits: HostLimits;
  ended: boolean;
}

function spawnSpare(kind: HostKind, limits: HostLimits): Spare {
  const events: HostEvents = { message: () => {}, exit: () => (spare.ended = true) };
  const spare: Spare = {
    kind,
    limits: { memoryMb: limits.memoryMb, maxMessageBytes: limits.maxMessageBytes },
    ended: false,
    events,
    host: spawnHost(kind, limits, events),
  };
  spare.host.unref();
  return spare;
}

/** A spare that is still there and was started as a host of this kind and these limits would be. */
function fits(spare: Spare | undefined, kind: HostKind, limits: HostLimits): spare is Spare {
  return (
    spare !== undefined &&
    !spare.ended &&
    spare.kind === kind &&
    spare.limits.memoryMb === limits.memoryMb &&
    spare.limits.maxMessageBytes === limits.maxMessageBytes
  );
}

/** How long after a spare is taken the next one starts. */
const NEXT_SPARE_DELAY_MS = 250;

/** The spare started by `ToolWorkers.startEarlySpare`, until a ToolWorkers takes it. */
let early: Spare | undefined;

/** Where one file's version runs: in which kind of host, with how much memory. */
export interface HostChoice {
  kind: HostKind;
  memoryMb?: number;
}

/**
 * The hosts (worker threads or child processes) that run isolated tools: one per version of each
 * tool file, started on first use, stopped when idle. Several registries (successive reloads)
 * share one set, so a call in flight keeps its version's host while new calls go to the new version's.
 */
export class ToolWorkers {
  #config: AppConfig;
  readonly #options: ToolWorkersOptions;
  readonly #workers = new Map<string, { worker: FileWorker; idle?: NodeJS.Timeout }>();
  #spare: Spare | undefined;
  /** Set by the first prewarm(): from then on a spare is kept ready. */
  #prewarmed: HostKind | undefined;
  #closed = false;

  constructor(config: AppConfig, options: Partial<ToolWorkersOptions> = {}) {
    this.#config = config;
    this.#options = resolvedOptions(options);
  }

  /** The options the registry's hosts get from the config (`tools.memory_mb`, `tools.max_result_chars`). */
  static optionsFor(config: AppConfig): Partial<ToolWorkersOptions> {
    return {
      memoryMb: config.tools?.memory_mb ?? DEFAULT_WORKER_OPTIONS.memoryMb,
      maxResultChars: config.tools?.max_result_chars ?? DEFAULT_WORKER_OPTIONS.maxResultChars,
      maxResultBytes: config.tools?.max_result_bytes ?? DEFAULT_MAX_RESULT_BYTES,
    };
  }

  /**
   * Starts a spare host before any registry exists — the CLI does, as soon as it has read the
   * config — so that it is ready by the first call; the first ToolWorkers of the same options takes it.
   */
  static startEarlySpare(kind: HostKind, config: AppConfig): void {
    if (early === undefined || early.ended) early = spawnSpare(kind, resolvedOptions(ToolWorkers.optionsFor(config)));
  }

  /** Runs a call in the host of that version of the file (its text as loaded), starting it if needed. */
  call(file: SourceFile, version: number, choice: HostChoice, call: WorkerCall): Promise<WorkerResult> {
    return this.#slot(file, version, choice).call(call);
  }

  /**
   * Starts a spare host of this kind ahead of need (and another each time one is taken), so that
   * the first call of a tool file pays only for its own import. Called at the start of a turn;
   * a spare holds no tool code, keeps no process alive, and ends with Riverse.
   */
  prewarm(kind: HostKind): void {
    this.#prewarmed = kind;
    if ((this.#spare !== undefined && !this.#spare.ended) || this.#closed) return;
    if (fits(early, kind, this.#options)) {
      this.#spare = early;
      early = undefined;
    } else this.#spare = spawnSpare(kind, this.#options);
  }

  #takeSpare(kind: HostKind, memoryMb: number): SpareHost | undefined {
    const spare = this.#spare;
    if (!fits(spare, kind, { ...this.#options, memoryMb })) return undefined;
    this.#spare = undefined;
    const again = this.#prewarmed;
    // The next one starts a moment later, not beside the call that took this one: it took a core from
    // that call and the reply after it, and a one-shot `riverse ask` has ended before it is ever used.
    if (again !== undefined) setTimeout(() => this.prewarm(again), NEXT_SPARE_DELAY_MS).unref();
    return spare;
  }

  #slot({ file, source }: SourceFile, version: number, choice: HostChoice): FileWorker {
    const key = `${file}\u0000${version}`;
    let slot = this.#workers.get(key);
    if (slot === undefined) {
      const worker = new FileWorker(choice.kind, file, version, source, this.#config, {
        ...this.#options,
        ...(choice.memoryMb === undefined ? {} : { memoryMb: choice.memoryMb }),
      });
      worker.spare = (kind, memoryMb) => this.#takeSpare(kind, memoryMb);
      const created: { worker: FileWorker; idle?: NodeJS.Timeout } = { worker };
      slot = created;
      worker.onIdle = () => {
        clearTimeout(created.idle);
        created.idle = setTimeout(() => {
          if (!worker.busy) void worker.close();
        }, this.#options.idleMs);
        created.idle.unref();
      };
      this.#workers.set(key, slot);
    }
    clearTimeout(slot.idle);
    return slot.worker;
  }

  /** The config the hosts started from now on construct their tools with (riverse.yaml rewritten). */
  reconfigure(config: AppConfig): void {
    this.#config = config;
  }

  /** Stops the hosts of `file` other than `keep` once their calls are done (after a reload). */
  retire(file: string, keep?: number): void {
    for (const [key, slot] of this.#workers) {
      if (slot.worker.file !== file || slot.worker.version === keep) continue;
      this.#workers.delete(key);
      clearTimeout(slot.idle);
      if (!slot.worker.busy) void slot.worker.close();
      else slot.worker.onIdle = () => void slot.worker.close();
    }
  }

  /** Stops every host; calls still running fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const spare = this.#spare;
    this.#spare = undefined;
    const slots = [...this.#workers.values()];
    this.#workers.clear();
    await spare?.host.terminate();
    await Promise.all(slots.map((slot) => (clearTimeout(slot.idle), slot.worker.close())));
  }
}
