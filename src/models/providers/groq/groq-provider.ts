import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import { OPEN_WEIGHT_VISION } from '../vision-models.ts';

/** Groq's API, OpenAI-compatible. */
export const GROQ_PROVIDER = openAICompatibleProvider({
  name: 'groq',
  example: 'llama-3.3-70b-versatile',
  keyEnv: 'GROQ_API_KEY',
  defaultBaseUrl: 'https://api.groq.com/openai/v1',
  // Groq's vision models are Llama 4 (and earlier Llama 3.2 vision previews); it takes links and base64.
  vision: OPEN_WEIGHT_VISION,
  imageUrls: true,
});
