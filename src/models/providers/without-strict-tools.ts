import { ModelError } from '../model-error.ts';
import type { ModelSettings } from './provider-descriptor.ts';
import { phrase } from '../model-phrases.ts';

/** Strict tools are OpenAI's: another provider's adapter would ignore the setting without a word. */
export function withoutStrictTools(provider: string, settings: ModelSettings): ModelSettings {
  if (settings.strictTools === true) {
    throw new ModelError('not-configured', phrase('model.strict-tools', { provider }));
  }
  return settings;
}
