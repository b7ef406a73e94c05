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
  // OpenAI's models page: GPT-4o, 4.1, 4.5, 5 and the o-series (but o1-mini, o3-mini) take images; audio, realtime and search models do not.
  vision: [
    [/audio|realtime|transcribe|tts|search|^gpt-3\.5|^o1-mini|^o3-mini|^gpt-4(-0314|-0613|-32k)?$/, false],
    [/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-4-vision|gpt-5|o1|o3|o4|computer-use)/, true],
  ],
  imageUrls: true,
  setupHint: () => phrase('model.hint.openai'),
});
