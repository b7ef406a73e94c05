import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import { OPEN_WEIGHT_VISION } from '../vision-models.ts';
import { firstOllamaModel } from './first-ollama-model.ts';
import { ollamaHost } from './ollama-host.ts';
import { phrase } from '../../model-phrases.ts';

/** An Ollama server (OLLAMA_HOST, else this machine), through its OpenAI-compatible API; no key. */
export const OLLAMA_PROVIDER = openAICompatibleProvider({
  name: 'ollama',
  example: 'qwen3',
  defaultBaseUrl: 'http://127.0.0.1:11434/v1',
  baseUrlFromEnv: (env) => `${ollamaHost(env.OLLAMA_HOST)}/v1`,
  discover: firstOllamaModel,
  // Ollama's vision models (llava, gemma3, qwen2.5vl, llama3.2-vision, …); its OpenAI API takes base64 images only, no links.
  vision: OPEN_WEIGHT_VISION,
  setupHint: () => phrase('model.hint.ollama'),
});
