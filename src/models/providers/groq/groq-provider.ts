import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';

/** Groq's API, OpenAI-compatible. */
export const GROQ_PROVIDER = openAICompatibleProvider({
  name: 'groq',
  example: 'llama-3.3-70b-versatile',
  keyEnv: 'GROQ_API_KEY',
  defaultBaseUrl: 'https://api.groq.com/openai/v1',
});
