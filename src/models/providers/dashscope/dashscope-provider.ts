import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import { QWEN_VISION } from '../qwen/qwen-provider.ts';

/** The qwen provider under its platform's name, Alibaba Cloud's DashScope (model ids `dashscope:…`). */
export const DASHSCOPE_PROVIDER = openAICompatibleProvider({
  name: 'dashscope',
  example: 'qwen-plus',
  keyEnv: 'DASHSCOPE_API_KEY',
  defaultBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
  vision: QWEN_VISION,
  imageUrls: true,
});
