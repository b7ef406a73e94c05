import { openAICompatibleProvider } from './openai-compatible-provider.ts';
import { phrase } from '../../model-phrases.ts';

/** OpenAI's API; with OPENAI_BASE_URL, any server that speaks Chat Completions. */
export const OPENAI_PROVIDER = openAICompatibleProvider({
  name: 'openai',
  example: 'gpt-4.1-mini',
  keyEnv: 'OPENAI_API_KEY',
  baseUrlEnv: 'OPENAI_BASE_URL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  discover: 'key',
  setupHint: () => phrase('model.hint.openai'),
});
