import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { requestTraceContext } from '../trace-headers.ts';
import { CallMemory } from '../../assistant/call-memory.ts';
import { ApiError } from '../api-error.ts';
import { readJsonObject } from '../read-json.ts';
import type { ServerContext } from '../server-context.ts';
import { completionBody, type CompletionIdentity } from './completion-chunks.ts';
import { streamCompletion } from './completion-stream.ts';
import { imagesForModel } from './image-input.ts';
import { firstImageAt, readCompletionRequest, RIVERSE_MODEL_ID } from './read-completion-request.ts';
import { ReplyText } from './reply-text.ts';
import { responsesRoutes } from './responses-routes.ts';
import { applySamplingRules } from './sampling-rules.ts';
import { refuse, turnFailure } from './turn-failure.ts';
import { turnTarget } from './turn-target.ts';

/** When `riverse` was first offered as a model (`created` in /v1/models): a fixed date, as OpenAI's are. */
const CREATED = 1_780_000_000;
const MODEL = { id: RIVERSE_MODEL_ID, object: 'model', created: CREATED, owned_by: 'riverse' };

/**
 * The OpenAI-compatible endpoint, mounted at `/v1`: `GET /models` lists the assistant as
 * `riverse`; `POST /chat/completions` runs a full turn with the configured model and the drop-in
 * tools on the conversation the client sends, with the client's own tools offered beside ours
 * (decision 011). One call memory per service keeps our calls made before a client call.
 */
export function openaiRoutes(context: ServerContext): Hono {
  const app = new Hono();
  const memory = new CallMemory();

  app.get('/models', (c) => c.json({ object: 'list', data: [MODEL] }));
  app.get('/models/:id', (c) => {
    if (c.req.param('id') !== RIVERSE_MODEL_ID)
      throw new ApiError(
        404,
        'model_not_found',
        `There is no model "${c.req.param('id').slice(0, 100)}" here: this service has one model, "riverse".`,
        'model',
      );
    return c.json(MODEL);
  });

  app.post('/chat/completions', async (c) => {
    const body = await readJsonObject(c);
    const input = readCompletionRequest(body);
    const { assistant, session } = turnTarget(c, context);
    // The request's pictures, made to fit the model (or a 400 where it cannot see).
    const firstImage = firstImageAt(body);
    if (firstImage !== undefined)
      input.messages = await imagesForModel(input.messages, assistant.model, firstImage, { signal: c.req.raw.signal });
    const identity: CompletionIdentity = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000) };
    const sampling = applySamplingRules(input.sampling, context.config.config.server?.v1);
    const request = {
      messages: input.messages,
      ...(sampling === undefined ? {} : { sampling }),
      ...(input.responseFormat === undefined ? {} : { responseFormat: input.responseFormat }),
      ...(input.toolChoice === undefined ? {} : { toolChoice: input.toolChoice }),
      ...(input.system === undefined ? {} : { system: input.system }),
      ...(input.tools.length === 0 ? {} : { clientTools: input.tools }),
      memory,
      session,
      // No person takes part in a /v1 request: our calls that need approval are refused, unless the config says otherwise (decision 017).
      approvals: context.config.config.server?.v1_approvals ?? 'deny',
      signal: c.req.raw.signal,
      ...requestTraceContext(c),
    };
    if (input.stream) return streamCompletion(c, assistant, request, identity, input.includeUsage, context.logLanguage);
    const text = new ReplyText();
    // The client waits for the whole answer: the model's replies need not stream either.
    const result = await assistant.complete({ ...request, stream: false, onEvent: (event) => void text.follow(event) });
    const failure = turnFailure(result);
    return failure === undefined ? c.json(completionBody(identity, text.text, result)) : refuse(c, failure);
  });
  // The Responses API, on the same turn (decision 024).
  app.route('/responses', responsesRoutes(context));
  return app;
}
