// A tool host: where isolated tool code runs — a worker thread, or a child process that holds
// against more (decision 006). Both speak the same messages; this is the one place that starts them.
import { LOADER_V8_FLAGS, startProcessHost } from './process-host.ts';
import { startThreadHost } from './thread-host.ts';
import type { FromWorker, ToWorker, WorkerData } from './worker-messages.ts';

export type HostKind = 'process' | 'worker';

/** A host's memory limit where the config sets none (`tools.memory_mb`), in MB. */
export const DEFAULT_HOST_MEMORY_MB = 256;

/** Set where the checkout's CLI runs bundled (scripts/checkout-bundle.mjs): the bundled tool-worker.ts. */
declare const RIVERSE_BUNDLED_TOOL_HOST: string | undefined;

/** The script every tool host runs. */
export const TOOL_HOST_SCRIPT = new URL(
  typeof RIVERSE_BUNDLED_TOOL_HOST === 'string'
    ? RIVERSE_BUNDLED_TOOL_HOST
    : import.meta.url.endsWith('.ts')
      ? './tool-worker.ts'
      : './tool-worker.js',
  import.meta.url,
);

export interface HostLimits {
  /** Memory limit, in MB: the V8 heap of a worker thread; everything a child process holds. */
  memoryMb: number;
  /** Largest message a child process may send, in bytes; it is stopped if it sends more. */
  maxMessageBytes: number;
}

export interface HostEvents {
  message(message: FromWorker): void;
  /** Called once, when the host has ended, with why ("its process exited with code 3 (process.exit?)"). */
  exit(reason: string): void;
}

export interface ToolHost {
  readonly kind: HostKind;
  /** The first message: what the host is to be (a loader, or the executor of one file). */
  init(data: WorkerData): void;
  post(message: ToWorker): void;
  /** A busy host keeps Riverse's process alive; an idle one must not. */
  ref(): void;
  unref(): void;
  /** Stops it at once; settles when it has ended. */
  terminate(): Promise<void>;
}

/** How long stopping a host may take to be seen: a thread blocked in a system call, a process stuck in the kernel, is let go after it. */
const STOP_WAIT_MS = 5_000;

/** Waits for `stopped`, but not past STOP_WAIT_MS: every wait has a bound. */
export async function waitForStop(stopped: Promise<unknown>): Promise<void> {
  await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
}

/** A host started and told what to be. */
export function startHost(kind: HostKind, data: WorkerData, limits: HostLimits, events: HostEvents): ToolHost {
  const host = spawnHost(kind, limits, events, data.role);
  host.init(data);
  return host;
}

/**
 * A host started but not yet told what to be: it loads Riverse's side of the host meanwhile, so
 * that `init` later costs only the tool file's own import. `events` may be changed until then.
 * A loader process is known to be one from its start: it gets the V8 settings of a short life.
 */
export function spawnHost(
  kind: HostKind,
  limits: HostLimits,
  events: HostEvents,
  role: WorkerData['role'] = 'execute',
): ToolHost {
  if (kind === 'worker') return startThreadHost(limits, events);
  return startProcessHost(limits, events, role === 'load' ? LOADER_V8_FLAGS : []);
}
