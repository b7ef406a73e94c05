import { Worker } from 'node:worker_threads';
import type { AppConfig } from '../app-config.ts';
import type { Diagnostic } from '../diagnostic.ts';
import type { FileInfo, FromWorker, ToWorker, WorkerData } from './worker-messages.ts';

/** A file and the text it held when it was read: what the loader (and later its executor) imports. */
export interface SourceFile {
  file: string;
  source: string;
}

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './tool-worker.ts' : './tool-worker.js', import.meta.url);

export interface LoadInWorkersOptions {
  /** How long importing one file may take (its top-level code and isAvailable()), in ms. */
  fileTimeoutMs: number;
  memoryMb: number;
}

/**
 * Imports tool files in a loader worker, one by one, and returns what each holds. A file whose
 * top-level code hangs, exits or crashes takes down only the loader, not this thread: it gets a
 * diagnostic, and a new loader carries on with the files after it. The loader ends afterwards, so
 * the modules it imported are freed.
 */
export async function loadInWorkers(files: readonly SourceFile[], config: AppConfig, version: number, options: LoadInWorkersOptions): Promise<FileInfo[]> {
  const results: FileInfo[] = [];
  let next = 0;
  while (next < files.length) {
    const data: WorkerData = { role: 'load', config };
    const worker = new Worker(WORKER_URL, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: options.memoryMb }, stdout: false, stderr: false });
    try {
      for (let first = true; next < files.length; next++, first = false) {
        const { file, source } = files[next]!;
        const outcome = await loadOne(worker, file, source, version, options.fileTimeoutMs);
        if ('info' in outcome) {
          results.push(outcome.info);
          continue;
        }
        // A crash may come from a file this loader imported earlier (a timer or a promise of its
        // top-level code): the file is tried again in a new loader, and blamed only if it crashes that one too.
        if (!first && outcome.failure.code === 'load-crashed') break;
        results.push({ file, tools: [], diagnostics: [outcome.failure] });
        next++;
        break; // this loader is gone; start another for the rest
      }
    } finally {
      await worker.terminate();
    }
  }
  return results;
}

function loadOne(worker: Worker, file: string, source: string, version: number, timeoutMs: number): Promise<{ info: FileInfo } | { failure: Diagnostic }> {
  return new Promise((resolve) => {
    let crash: Error | undefined;
    const finish = (outcome: { info: FileInfo } | { failure: Diagnostic }) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve(outcome);
    };
    const fail = (code: Diagnostic['code'], message: string, hint: string) => finish({ failure: { severity: 'error', code, file, message, hint } });
    const onMessage = (message: FromWorker) => {
      if (message.type === 'loaded' && message.info.file === file) finish({ info: message.info });
    };
    const onError = (error: Error) => (crash = error);
    const onExit = (code: number) => {
      if ((crash as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') fail('load-crashed', 'loading the file exceeded the memory limit', 'top-level code runs when the file is loaded; move heavy work into execute()');
      else if (crash !== undefined) fail('load-crashed', `loading the file crashed: ${crash.message}`, 'an error thrown later by top-level code (a timer, a rejected promise) ends the loader; catch it');
      else fail('load-crashed', `loading the file ended its loader worker (exit code ${code})`, 'do not call process.exit() in a tool file');
    };
    const timer = setTimeout(
      () => fail('load-timeout', `loading the file did not finish within ${timeoutMs / 1000} s (top-level code or isAvailable() hangs)`, 'top-level code runs when the file is loaded; it must not loop or wait forever'),
      timeoutMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ type: 'load', file, version, source } satisfies ToWorker);
  });
}
