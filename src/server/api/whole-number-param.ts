import { ApiError } from '../api-error.ts';

/**
 * A query parameter that is a whole number from `min` to `max` (`?limit=20`): its value, undefined when
 * it is absent or empty, or a 400 `invalid-request` naming it and the range.
 */
export function wholeNumberParam(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || text === '') return undefined;
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < min || number > max)
    throw new ApiError(
      400,
      'invalid-request',
      `"${name}" must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`,
      name,
    );
  return number;
}
