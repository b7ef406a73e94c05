/**
 * The names `riverse tools show --dialect` takes, one per way an adapter sends tools. Apart from
 * the wires themselves (provider-wires.ts, which must name exactly these), so that the command line
 * is built without loading the adapters.
 */
export const PROVIDER_WIRE_NAMES = ['openai', 'openai-strict', 'anthropic', 'gemini', 'local'] as const;
export type ProviderWireName = (typeof PROVIDER_WIRE_NAMES)[number];
