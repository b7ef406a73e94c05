import type { ProviderDescriptor } from '../provider-descriptor.ts';
import { withoutStrictTools } from '../without-strict-tools.ts';
import { createGeminiModel, GEMINI_BASE_URL } from './gemini.ts';
import { GEMINI_TOOLS } from './gemini-request.ts';
import { phrase } from '../../model-phrases.ts';

/** Google's Gemini API, or a server that speaks it at GEMINI_BASE_URL. */
export const GEMINI_PROVIDER: ProviderDescriptor = {
  name: 'gemini',
  example: 'gemini-2.5-flash',
  keyEnv: 'GEMINI_API_KEY',
  baseUrlEnv: 'GEMINI_BASE_URL',
  defaultBaseUrl: GEMINI_BASE_URL,
  wires: { gemini: GEMINI_TOOLS },
  // Every Gemini model since 1.5, and Gemma 3 on the same API, takes images; Gemini 1.0 Pro took text only.
  vision: [
    [/gemini-1\.0|^(models\/)?gemini-pro$/, false],
    [/gemini|gemma-?3/, true],
  ],
  discover: 'key',
  setupHint: () => phrase('model.hint.key', { env: 'GEMINI_API_KEY' }),
  create: (settings) => createGeminiModel(withoutStrictTools('gemini', settings)),
};
