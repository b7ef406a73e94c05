import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';

/** Qwen models on Alibaba Cloud's DashScope, through its OpenAI-compatible mode (dashscope is the same). */
export const QWEN_PROVIDER = openAICompatibleProvider({
  name: 'qwen',
  example: 'qwen-plus',
  keyEnv: 'DASHSCOPE_API_KEY',
  defaultBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
});
