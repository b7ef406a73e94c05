/**
 * The names of the providers in providers.ts, in its order, written out for the command line's help,
 * which is built before anything is loaded and must stay cheap: this file imports nothing. A test
 * keeps it equal to the descriptors.
 */
export const PROVIDER_NAMES = [
  'openai',
  'anthropic',
  'gemini',
  'ollama',
  'deepseek',
  'qwen',
  'dashscope',
  'groq',
  'vllm',
  'lmstudio',
  'llamacpp',
  'local',
] as const;
