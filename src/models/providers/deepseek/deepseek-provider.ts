import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';

/** DeepSeek's API, OpenAI-compatible; its chat and reasoner models take text only (no vision table). */
export const DEEPSEEK_PROVIDER = openAICompatibleProvider({
  name: 'deepseek',
  example: 'deepseek-chat',
  keyEnv: 'DEEPSEEK_API_KEY',
  defaultBaseUrl: 'https://api.deepseek.com/v1',
});
