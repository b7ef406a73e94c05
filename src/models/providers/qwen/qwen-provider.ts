import { openAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import type { VisionTable } from '../vision-models.ts';

/** DashScope's models that take images: the VL and QVQ families, Omni, and Qwen 3.5 (multimodal throughout). */
export const QWEN_VISION: VisionTable = [[/(^|-)vl(-|$)|qvq|omni|^qwen3\.5/i, true]];

/** Qwen models on Alibaba Cloud's DashScope, through its OpenAI-compatible mode (dashscope is the same). */
export const QWEN_PROVIDER = openAICompatibleProvider({
  name: 'qwen',
  example: 'qwen-plus',
  keyEnv: 'DASHSCOPE_API_KEY',
  defaultBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
  vision: QWEN_VISION,
  imageUrls: true,
});
