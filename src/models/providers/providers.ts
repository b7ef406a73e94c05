import { ANTHROPIC_PROVIDER } from './anthropic/anthropic-provider.ts';
import { DASHSCOPE_PROVIDER } from './dashscope/dashscope-provider.ts';
import { DEEPSEEK_PROVIDER } from './deepseek/deepseek-provider.ts';
import { GEMINI_PROVIDER } from './gemini/gemini-provider.ts';
import { GROQ_PROVIDER } from './groq/groq-provider.ts';
import { LLAMACPP_PROVIDER } from './llamacpp/llamacpp-provider.ts';
import { LMSTUDIO_PROVIDER } from './lmstudio/lmstudio-provider.ts';
import { LOCAL_PROVIDER } from './local/local-provider.ts';
import { OLLAMA_PROVIDER } from './ollama/ollama-provider.ts';
import { OPENAI_PROVIDER } from './openai/openai-provider.ts';
import type { ProviderDescriptor } from './provider-descriptor.ts';
import { QWEN_PROVIDER } from './qwen/qwen-provider.ts';
import { VLLM_PROVIDER } from './vllm/vllm-provider.ts';

/**
 * Every model provider, in the order they are listed (help, messages) and tried when nothing names
 * a model (each one's `discover`). The model resolution table, the tool wires, the no-model message
 * and the help's list all come from here; provider-names.ts repeats the names for the help, which
 * must not load adapters, and a test keeps the two equal.
 */
export const PROVIDERS: readonly ProviderDescriptor[] = [
  OPENAI_PROVIDER,
  ANTHROPIC_PROVIDER,
  GEMINI_PROVIDER,
  OLLAMA_PROVIDER,
  DEEPSEEK_PROVIDER,
  QWEN_PROVIDER,
  DASHSCOPE_PROVIDER,
  GROQ_PROVIDER,
  VLLM_PROVIDER,
  LMSTUDIO_PROVIDER,
  LLAMACPP_PROVIDER,
  LOCAL_PROVIDER,
];

/** The provider of a prefix (`openai` in `openai:gpt-4.1-mini`), or undefined for an unknown one. */
export function providerNamed(prefix: string): ProviderDescriptor | undefined {
  return PROVIDERS.find((provider) => provider.name === prefix);
}
