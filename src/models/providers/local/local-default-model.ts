import type { ChooseModelOptions, DownloadOffer } from '../provider-descriptor.ts';
import { hasNodeLlamaCpp, resolveModelReference } from './local-llama-runtime.ts';

/**
 * The embedded default: a small instruct model with tool calling (Qwen2.5 1.5B Instruct, Q4_K_M,
 * about 1.1 GB), run by the local provider; downloaded on first use once the user agrees.
 */
export const DEFAULT_LOCAL_MODEL = 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-q4_k_m.gguf';

/**
 * The embedded default model when nothing names one: when node-llama-cpp is installed and the
 * model is downloaded already, or the user agrees to download it now.
 */
export async function defaultLocalModel(
  _env: NodeJS.ProcessEnv,
  { modelsDirectory, confirmDownload }: ChooseModelOptions,
): Promise<string | undefined> {
  if (modelsDirectory === undefined || !(await hasNodeLlamaCpp())) return undefined;
  const downloaded = await resolveModelReference(DEFAULT_LOCAL_MODEL, modelsDirectory, false).then(
    () => true,
    () => false,
  );
  const offer: DownloadOffer = { file: DEFAULT_LOCAL_MODEL.split('/').pop()!, sizeGb: 1.1, directory: modelsDirectory };
  if (downloaded || (confirmDownload !== undefined && (await confirmDownload(offer)))) return DEFAULT_LOCAL_MODEL;
  return undefined;
}
