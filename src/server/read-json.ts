import type { Context } from 'hono';
import { ApiError } from './api-error.ts';

/**
 * The request body as JSON (an object), or a 400 that says what was wrong with it. The body has
 * passed the size limit already.
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await c.req.text();
  } catch (error) {
    // The connection closed mid-body (a slow sender cut with its 408, a client that left): no fault of ours to log.
    if (error instanceof Error && /aborted|closed|reset/i.test(error.message))
      throw new ApiError(
        400,
        'invalid-request',
        'The request body did not arrive whole: the connection closed while it was sent.',
      );
    throw error;
  }
  if (text.trim() === '') throw new ApiError(400, 'invalid-request', 'The request needs a JSON body (an object).');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'invalid-json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ApiError(400, 'invalid-request', 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}
