import { ModelError } from '../model-error.ts';
import type { ModelSettings } from './provider-descriptor.ts';

/** Strict tools are OpenAI's: another provider's adapter would ignore the setting without a word. */
export function withoutStrictTools(provider: string, settings: ModelSettings): ModelSettings {
  if (settings.strictTools === true) {
    const message = `model_options.strict_tools is for OpenAI-compatible providers; ${provider} does not take it (remove it from riverse.yaml).`;
    throw new ModelError('not-configured', message);
  }
  return settings;
}
