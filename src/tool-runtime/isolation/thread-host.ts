import { TOOL_HOST_SCRIPT, waitForStop, type HostEvents, type HostLimits, type ToolHost } from './tool-host.ts';
import type { ToWorker, WorkerData } from './worker-messages.ts';

/** A worker thread: cheap to start, but it shares Riverse's process (its file descriptors, and memory outside the V8 heap). */
export function startThreadHost(limits: HostLimits, events: HostEvents): ToolHost {
  // Taken here, not imported: a command that starts no host does not load node:worker_threads (~2 ms).
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(TOOL_HOST_SCRIPT, {
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    stdout: false,
    stderr: false,
  });
  let crash: string | undefined;
  worker.on('message', (message) => events.message(message));
  worker.on('error', (error) => {
    crash =
      (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `its worker exceeded the memory limit of ${limits.memoryMb} MB and was stopped`
        : `its worker crashed: ${error.message}`;
  });
  worker.once('exit', (code) => events.exit(crash ?? `its worker exited with code ${code} (process.exit?)`));
  const post = (message: ToWorker | WorkerData) => {
    try {
      worker.postMessage(message);
    } catch {
      // The worker is gone; its exit says why.
    }
  };
  return {
    kind: 'worker',
    init: post,
    post(message: ToWorker) {
      try {
        worker.postMessage(message);
      } catch {
        // The worker is gone; its exit says why.
      }
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    terminate: () => waitForStop(worker.terminate()),
  };
}
