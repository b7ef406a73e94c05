// node-llama-cpp, loaded on first use: it is optional (not a dependency), so a missing package is a
// configuration error that says how to install it, and no type here may come from it (tsc must pass
// without it). The interfaces below are the slice of its API this provider uses.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { ModelError } from '../../model-error.ts';
import { installCommand, NODE_LLAMA_CPP_VERSION, ROOT } from './local-llama-install.ts';
import { phrase } from '../../model-phrases.ts';

export type ChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: string[] };

interface GenerateOptions {
  grammar?: LlamaGrammar;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  /** Texts that end the reply where they appear. */
  customStopTriggers?: string[];
  repeatPenalty?: { presencePenalty?: number; frequencyPenalty?: number };
  signal?: AbortSignal;
  onTextChunk?: (text: string) => void;
  onToken?: (tokens: number[]) => void;
}

export interface LlamaChat {
  generateResponse(
    history: ChatHistoryItem[],
    options: GenerateOptions,
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
}

export interface LlamaContext {
  getSequence(): object;
  dispose(): Promise<void>;
}

export interface LlamaModel {
  readonly trainContextSize: number;
  createContext(options: { contextSize?: number | { max: number }; threads?: number }): Promise<LlamaContext>;
  createEmbeddingContext(options: {
    contextSize?: number | { max: number };
    threads?: number;
  }): Promise<LlamaEmbeddingContext>;
}

export interface LlamaEmbeddingContext {
  getEmbeddingFor(text: string): Promise<{ readonly vector: readonly number[] }>;
  dispose(): Promise<void>;
}

export type LlamaGrammar = object;

interface Llama {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: object): Promise<LlamaGrammar>;
  /** A grammar of llama.cpp's own (`json`: any JSON value; an object is what it starts with). */
  getGrammarFor(type: 'json'): Promise<LlamaGrammar>;
}

interface NodeLlamaCpp {
  getLlama(options: {
    build: 'never';
    logLevel: string;
    logger: (level: string, message: string) => void;
  }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: object }) => LlamaChat;
  resolveModelFile(
    uri: string,
    options: {
      directory: string;
      download: 'auto' | false;
      cli: boolean;
      onProgress?: DownloadProgress['onProgress'];
      signal?: AbortSignal;
    },
  ): Promise<string>;
}

export interface Runtime {
  llama: Llama;
  LlamaChat: NodeLlamaCpp['LlamaChat'];
}

let runtime: Promise<Runtime> | undefined;
const models = new Map<string, Promise<LlamaModel>>();
/** llama.cpp's latest error lines: its exceptions say only "Failed to load model"; the reason is logged. */
const loggedErrors: string[] = [];

/** Whether node-llama-cpp can be imported (for tests that need it). */
export async function hasNodeLlamaCpp(): Promise<boolean> {
  try {
    await importPackage();
    return true;
  } catch {
    return false;
  }
}

/** The package and its native binding, once per process. */
export function loadRuntime(): Promise<Runtime> {
  runtime ??= start().catch((error: unknown) => {
    runtime = undefined; // an install made after the failure is picked up by the next request
    throw error;
  });
  return runtime;
}

/** `hf:user/repo/file.gguf` (or an https URL): a model to download before it is used. */
export function isModelReference(path: string): boolean {
  return /^(hf:|huggingface:|https?:\/\/)/.test(path);
}

/** Who watches a download instead of the terminal's progress bar (the service's dashboard). */
export interface DownloadProgress {
  onProgress: (status: { totalSize: number; downloadedSize: number }) => void;
  signal?: AbortSignal;
}

/**
 * The local file of a model reference: downloaded into `directory` on first use (with a progress
 * bar, resuming a cut download; or reported to `progress` instead of the bar), found there
 * afterwards. `download: false` only looks.
 */
export async function resolveModelReference(
  reference: string,
  directory: string,
  download = true,
  progress?: DownloadProgress,
): Promise<string> {
  await loadRuntime(); // a missing package is reported the usual way
  const module = await importPackage();
  try {
    const watched =
      progress === undefined
        ? {}
        : { onProgress: progress.onProgress, ...(progress.signal === undefined ? {} : { signal: progress.signal }) };
    return await module.resolveModelFile(reference, {
      directory,
      download: download ? 'auto' : false,
      cli: download && progress === undefined,
      ...watched,
    });
  } catch (error) {
    throw new ModelError(
      'not-configured',
      `local:${reference}: ${download ? 'could not download it' : 'it is not downloaded yet'} (${message(error)}). ${download ? 'Check the network, or download the .gguf file yourself and set RIVERSE_MODEL=local:/path/to/model.gguf.' : ''}`.trim(),
      { cause: error },
    );
  }
}

/** A GGUF model, loaded once per process per path (it may be gigabytes). */
export function loadModelFile(path: string): Promise<LlamaModel> {
  const file = resolve(path);
  let model = models.get(file);
  if (model === undefined) {
    const opening = openModel(file);
    models.set(file, opening);
    // A fixed or newly downloaded file is tried again.
    opening.catch(() => models.get(file) === opening && models.delete(file));
    model = opening;
  }
  return model;
}

async function start(): Promise<Runtime> {
  let module: NodeLlamaCpp;
  try {
    module = await importPackage();
  } catch (error) {
    const missing =
      (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && message(error).includes("'node-llama-cpp'");
    throw new ModelError(
      'not-configured',
      missing
        ? phrase('model.local-missing', { version: NODE_LLAMA_CPP_VERSION, root: ROOT, command: installCommand() })
        : `node-llama-cpp failed to load: ${message(error)}. Reinstall it with:\n  ${installCommand()}`,
      { cause: error },
    );
  }
  try {
    // `never`: with no prebuilt binary for this machine, fail now rather than try to compile llama.cpp.
    const llama = await module.getLlama({ build: 'never', logLevel: 'error', logger: keepError });
    return { llama, LlamaChat: module.LlamaChat };
  } catch (error) {
    throw new ModelError(
      'not-configured',
      `node-llama-cpp has no working llama.cpp binary for ${process.platform}-${process.arch}: ${message(error)}. Install the prebuilt one with:\n  ${installCommand()}`,
      { cause: error },
    );
  }
}

async function openModel(file: string): Promise<LlamaModel> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile()) {
    throw new ModelError(
      'not-configured',
      `local:${basename(file)}: there is no model file at ${file}. Download a GGUF model (e.g. a Q4_K_M quantization of a small instruct model) and set RIVERSE_MODEL=local:/path/to/model.gguf.`,
    );
  }
  const { llama } = await loadRuntime();
  loggedErrors.length = 0;
  try {
    return await llama.loadModel({ modelPath: file });
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 10)); // the log lines arrive after the rejection
    const reason = [message(error), ...loggedErrors.filter((line) => !line.includes('failed to load model'))].join(
      '; ',
    );
    throw new ModelError(
      'not-configured',
      `local:${basename(file)}: could not load ${file} as a GGUF model (${reason}). Check that it is a complete .gguf file (download it again if it was cut short) of an architecture llama.cpp supports.`,
      { cause: error },
    );
  }
}

/** Kept for error messages instead of printed: riverse owns the terminal. */
function keepError(_level: string, line: string): void {
  loggedErrors.push(line.trim());
  if (loggedErrors.length > 5) loggedErrors.shift();
}

async function importPackage(): Promise<NodeLlamaCpp> {
  const name: string = 'node-llama-cpp'; // a string, not a literal: tsc must not look for the package
  return (await import(name)) as NodeLlamaCpp;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
