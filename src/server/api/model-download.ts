// The embedded default local model, downloaded for the service from the dashboard: node-llama-cpp's
// own downloader (resolveModelReference: resume, HF_ENDPOINT) into the data folder's models/,
// progress published as `model-download` events, then loaded once to prove it works and made the
// service's model. One download at a time.
import { join } from 'node:path';
import { installCommand } from '../../models/providers/local/local-llama-install.ts';
import {
  hasNodeLlamaCpp,
  loadModelFile,
  resolveModelReference,
} from '../../models/providers/local/local-llama-runtime.ts';
import { DEFAULT_LOCAL_MODEL, resolveModel } from '../../models/resolve-model.ts';
import type { ChatModel } from '../../models/chat-model.ts';
import { ApiError } from '../api-error.ts';
import type { ServerEvents } from '../server-events.ts';

/** What `/api/status` (`download`) and the `model-download` events say of the download. */
interface ModelDownloadState {
  state: 'idle' | 'downloading' | 'done' | 'failed';
  file: string;
  receivedBytes: number;
  totalBytes: number;
  /** About how big the file is, before the download says. */
  sizeGb: number;
  /** The file is down and being loaded (state is still `downloading`). */
  loading?: boolean;
  /** node-llama-cpp is not installed: the command that installs it. */
  installCommand?: string;
  /** Why the download (or loading the file) failed. */
  error?: string;
}

/** What of the service the download uses: where progress goes, the data folder, and the service's model. */
export interface ModelDownloadService {
  /** Where `model-download` events go; the service closing them stops the download. */
  events: ServerEvents;
  /** The data folder: the file goes to its `models/`, where `chooseModel` looks. */
  dataDir: string;
  /** Makes the loaded model the one the service uses. */
  setModel(model: ChatModel): void;
}

export interface ModelDownloaderOptions {
  /** The model to download (default: the embedded default, DEFAULT_LOCAL_MODEL). */
  reference?: string;
  /** Where it goes (default: `models/` in the service's data folder, where `chooseModel` looks). */
  directory?: string;
}

export interface ModelDownloader {
  state(): ModelDownloadState;
  /** Starts the download; 409 when one is running or node-llama-cpp is missing. */
  start(): Promise<void>;
}

/** Progress events are sent at most this often (the last one always). */
const PROGRESS_INTERVAL_MS = 200;

export function createModelDownloader(
  context: ModelDownloadService,
  options: ModelDownloaderOptions = {},
): ModelDownloader {
  const reference = options.reference ?? DEFAULT_LOCAL_MODEL;
  const directory = options.directory ?? join(context.dataDir, 'models');
  let state: ModelDownloadState = {
    state: 'idle',
    file: reference.split('/').pop() ?? reference,
    receivedBytes: 0,
    totalBytes: 0,
    sizeGb: 1.1,
  };
  let running = false;
  let lastSent = 0;
  let trailing: NodeJS.Timeout | undefined;

  const publish = (): void => {
    clearTimeout(trailing);
    trailing = undefined;
    lastSent = Date.now();
    context.events.publish('model-download', state);
  };
  /** A progress step (`always` false) waits for the interval; the latest one is sent when it is over. */
  const set = (next: Partial<ModelDownloadState>, always = true): void => {
    state = { ...state, ...next }; // undefined leaves a field out of the JSON
    const wait = lastSent + PROGRESS_INTERVAL_MS - Date.now();
    if (always || wait <= 0) publish();
    else trailing ??= setTimeout(publish, wait).unref();
  };

  // Asked once up front, so that the page can say how to install it before anyone clicks.
  const runtime = hasNodeLlamaCpp().then((installed) => {
    if (!installed) state = { ...state, installCommand: installCommand() };
    return installed;
  });

  const run = async (): Promise<void> => {
    const stop = new AbortController();
    // The service closing ends its event streams: the download stops with them.
    const unsubscribe = context.events.subscribe(
      () => {},
      () => stop.abort(),
    );
    try {
      const path = await resolveModelReference(reference, directory, true, {
        signal: stop.signal,
        onProgress: ({ totalSize, downloadedSize }) =>
          set(
            { state: 'downloading', receivedBytes: downloadedSize, totalBytes: totalSize },
            downloadedSize >= totalSize,
          ),
      });
      set({
        state: 'downloading',
        loading: true,
        receivedBytes: Math.max(state.receivedBytes, state.totalBytes),
        totalBytes: Math.max(state.receivedBytes, state.totalBytes),
      });
      // The existing resolution of `local:` models; loading the file now proves it is a model (and
      // keeps it loaded for the first turn, which would load the same file).
      const model = resolveModel({ model: `local:${reference}` }, {}, { modelsDirectory: directory });
      await loadModelFile(path);
      context.setModel(model); // before "done": a page that asks for the status then finds the model
      set({ state: 'done', loading: undefined });
    } catch (error) {
      set({ state: 'failed', loading: undefined, error: error instanceof Error ? error.message : String(error) });
    } finally {
      unsubscribe();
      running = false;
    }
  };

  return {
    state: () => state,
    async start() {
      if (running)
        throw new ApiError(
          409,
          'download-running',
          `${state.file} is already downloading; its progress is on /api/events (model-download).`,
        );
      running = true;
      if (!(await runtime)) {
        running = false;
        throw new ApiError(
          409,
          'local-runtime-missing',
          `Local models need node-llama-cpp, which is not installed. Install it with: ${installCommand()}`,
        );
      }
      set({ state: 'downloading', error: undefined, receivedBytes: 0, totalBytes: 0 });
      void run();
    },
  };
}
