import type { Context } from 'hono';
import type { Assistant } from '../../assistant/assistant.ts';
import { ApiError } from '../api-error.ts';
import { connectHint } from '../connect-hint.ts';
import { requestLanguage } from '../request-language.ts';
import type { ServerContext } from '../server-context.ts';

const MAX_SESSION_NAME = 200;

/**
 * What a /v1 turn runs on: the assistant (503 `no-model`, with what to set in the request's language,
 * when there is none) and
 * the session its calls are traced under (`X-Riverse-Session`, `openai` by default).
 */
export function turnTarget(c: Context, context: ServerContext): { assistant: Assistant; session: string } {
  const assistant = context.assistant();
  if (assistant === undefined)
    throw new ApiError(503, 'no-model', connectHint(requestLanguage(c), context.modelProblem));
  const session = c.req.header('x-riverse-session') ?? 'openai';
  if (session.trim() === '' || session.length > MAX_SESSION_NAME)
    throw new ApiError(
      400,
      'invalid-request',
      `The X-Riverse-Session header must name a session in 1 to ${MAX_SESSION_NAME} characters.`,
      'X-Riverse-Session',
    );
  return { assistant, session };
}
