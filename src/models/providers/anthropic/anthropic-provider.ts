import type { ProviderDescriptor } from '../provider-descriptor.ts';
import { withoutStrictTools } from '../without-strict-tools.ts';
import { ANTHROPIC_BASE_URL, createAnthropicModel } from './anthropic.ts';
import { ANTHROPIC_TOOLS } from './anthropic-request.ts';
import { phrase } from '../../model-phrases.ts';

/** Anthropic's Messages API, or a server that speaks it at ANTHROPIC_BASE_URL. */
export const ANTHROPIC_PROVIDER: ProviderDescriptor = {
  name: 'anthropic',
  example: 'claude-sonnet-4-5',
  keyEnv: 'ANTHROPIC_API_KEY',
  baseUrlEnv: 'ANTHROPIC_BASE_URL',
  defaultBaseUrl: ANTHROPIC_BASE_URL,
  wires: { anthropic: ANTHROPIC_TOOLS },
  // Claude 3 and every model since take images (Anthropic's vision guide); Claude 2 and Instant do not.
  vision: [
    [/^claude-(2|instant)/, false],
    [/^claude-/, true],
  ],
  imageUrls: true,
  discover: 'key',
  setupHint: () => phrase('model.hint.key', { env: 'ANTHROPIC_API_KEY' }),
  create: (settings) => createAnthropicModel(withoutStrictTools('anthropic', settings)),
};
