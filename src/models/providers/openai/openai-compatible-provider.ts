import type { ProviderDescriptor } from '../provider-descriptor.ts';
import { createOpenAICompatibleModel } from './openai-compatible.ts';
import { OPENAI_STRICT_TOOLS, OPENAI_TOOLS } from './openai-request.ts';

/** What a provider on the OpenAI-compatible adapter says of itself: all but the adapter and its wires. */
export type OpenAICompatibleFields = Omit<ProviderDescriptor, 'wires' | 'create' | 'defaultBaseUrl'> & {
  defaultBaseUrl: string;
};

/** A provider served by the OpenAI-compatible adapter (OpenAI itself and the presets for other servers). */
export function openAICompatibleProvider(fields: OpenAICompatibleFields): ProviderDescriptor {
  return {
    ...fields,
    wires: { openai: OPENAI_TOOLS, 'openai-strict': OPENAI_STRICT_TOOLS },
    create: (settings) =>
      createOpenAICompatibleModel({
        ...settings,
        baseUrl: settings.baseUrl ?? fields.defaultBaseUrl,
        provider: fields.name,
      }),
  };
}
