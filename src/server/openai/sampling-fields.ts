import type { SamplingSettings } from '../../models/chat-model.ts';
import { SAMPLING_RANGES, type NumericSamplingField } from '../../models/sampling-ranges.ts';
import { ApiError } from '../api-error.ts';

/**
 * A request's numeric sampling fields, each by its name in that API (`max_output_tokens` in the
 * Responses API is `max_tokens` of chat completions), within OpenAI's bounds; a later name of the same
 * field wins. A value of the wrong kind or out of bounds is a 400 naming the field.
 */
export function readSamplingNumbers(
  body: Record<string, unknown>,
  fields: readonly (readonly [NumericSamplingField, string])[],
): SamplingSettings {
  const sampling: SamplingSettings = {};
  for (const [field, name] of fields) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    const range = SAMPLING_RANGES[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || (range.whole && !Number.isInteger(value)))
      throw invalid(name, `"${name}" must be ${range.whole ? 'a whole number' : 'a number'}.`);
    if (value < range.min || value > range.max) {
      const bounds =
        range.max === Number.MAX_SAFE_INTEGER ? `at least ${range.min}` : `from ${range.min} to ${range.max}`;
      throw invalid(name, `"${name}" must be ${bounds}; it is ${value}.`);
    }
    sampling[range.key] = value;
  }
  return sampling;
}

const invalid = (param: string, message: string) => new ApiError(400, 'invalid-request', message, param);
