import type { SamplingSettings } from './chat-model.ts';

/** The numeric sampling fields, in OpenAI's names (how a /v1 client and `server.v1` write them). */
export type NumericSamplingField =
  | 'temperature'
  | 'top_p'
  | 'max_tokens'
  | 'seed'
  | 'presence_penalty'
  | 'frequency_penalty';

/** One field: its key in SamplingSettings, the values OpenAI's API takes, and whether it is whole. */
export interface SamplingRange {
  key: keyof Omit<SamplingSettings, 'stop'>;
  min: number;
  max: number;
  whole: boolean;
}

/** OpenAI's documented bounds, which a client's value and a configured clamp or pin must keep to. */
export const SAMPLING_RANGES: Record<NumericSamplingField, SamplingRange> = {
  temperature: { key: 'temperature', min: 0, max: 2, whole: false },
  top_p: { key: 'topP', min: 0, max: 1, whole: false },
  max_tokens: { key: 'maxTokens', min: 1, max: Number.MAX_SAFE_INTEGER, whole: true },
  seed: { key: 'seed', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, whole: true },
  presence_penalty: { key: 'presencePenalty', min: -2, max: 2, whole: false },
  frequency_penalty: { key: 'frequencyPenalty', min: -2, max: 2, whole: false },
};

/** OpenAI takes up to 4 stop sequences; a few more cost nothing, and some front ends send them. */
export const MAX_STOP_SEQUENCES = 16;
