import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import { OPEN_WEIGHT_VISION } from '../vision-models.ts';

/** LM Studio's local server (LMSTUDIO_BASE_URL, else this machine's port 1234); no key. */
export const LMSTUDIO_PROVIDER = openAICompatibleProvider({
  name: 'lmstudio',
  example: 'qwen2.5-7b-instruct',
  baseUrlEnv: 'LMSTUDIO_BASE_URL',
  defaultBaseUrl: 'http://127.0.0.1:1234/v1',
  // LM Studio takes base64 images for its vision models (llava, gemma 3, qwen2.5-vl).
  vision: OPEN_WEIGHT_VISION,
});
