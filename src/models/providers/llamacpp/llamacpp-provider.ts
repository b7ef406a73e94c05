import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import { OPEN_WEIGHT_VISION } from '../vision-models.ts';

/** llama.cpp's llama-server (LLAMACPP_BASE_URL, else this machine's port 8080); no key. */
export const LLAMACPP_PROVIDER = openAICompatibleProvider({
  name: 'llamacpp',
  example: 'default',
  baseUrlEnv: 'LLAMACPP_BASE_URL',
  defaultBaseUrl: 'http://127.0.0.1:8080/v1',
  // llama-server takes base64 images when started with --mmproj; its model name rarely says so (set model_options.vision).
  vision: OPEN_WEIGHT_VISION,
});
