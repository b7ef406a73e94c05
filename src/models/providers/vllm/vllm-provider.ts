import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import { OPEN_WEIGHT_VISION } from '../vision-models.ts';

/** A vLLM server (VLLM_BASE_URL, else this machine's port 8000); no key. */
export const VLLM_PROVIDER = openAICompatibleProvider({
  name: 'vllm',
  example: 'Qwen/Qwen2.5-7B-Instruct',
  baseUrlEnv: 'VLLM_BASE_URL',
  defaultBaseUrl: 'http://127.0.0.1:8000/v1',
  // vLLM serves multimodal models by their Hugging Face names and fetches image links itself.
  vision: OPEN_WEIGHT_VISION,
  imageUrls: true,
});
