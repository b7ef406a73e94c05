import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { requestTraceContext } from '../trace-headers.ts';
import type { CompletionRequest } from '../../assistant/assistant.ts';
import { CallMemory } from '../../assistant/call-memory.ts';
import type { TurnResult } from '../../assistant/turn-events.ts';
import type { ChatMessage } from '../../models/chat-message.ts';
import { storeCall } from '../../store/store-error.ts';
import { ApiError } from '../api-error.ts';
import { readJsonObject } from '../read-json.ts';
import type { V1Settings } from '../server-config.ts';
import type { ServerContext } from '../server-context.ts';
import { ReplyText } from './reply-text.ts';
import { responseBody, type ResponseIdentity } from './responses-body.ts';
import { imagesForModel } from './image-input.ts';
import {
  itemsToMessages,
  outputItems,
  resolveReferences,
  type OutputCall,
  type OutputMessage,
} from './responses-items.ts';
import { readResponsesRequest, type ResponsesInput } from './responses-request.ts';
import { streamResponse } from './responses-stream.ts';
import { applySamplingRules } from './sampling-rules.ts';
import { refuse, turnFailure } from './turn-failure.ts';
import { turnTarget } from './turn-target.ts';

const notFound = (id: string) =>
  new ApiError(
    404,
    'response-not-found',
    `There is no stored response "${id.slice(0, 100)}": it was made with "store": false, deleted (or its session was), or never made here. Send the whole conversation as "input" instead.`,
    'previous_response_id',
  );

/**
 * OpenAI's Responses API at `/v1/responses` (decision 024), on the same turn as chat completions
 * (`Assistant.complete`): `POST` runs a turn on the request's items — after the stored conversation
 * of `previous_response_id` — streamed as Responses events or not; `GET /:id` and `DELETE /:id`
 * read and remove a stored one. The calls we ran before a client call are remembered as for chat
 * completions, for clients that send the whole conversation back.
 */
export function responsesRoutes(context: ServerContext): Hono {
  const app = new Hono();
  const memory = new CallMemory();

  app.post('/', async (c) => {
    const input = readResponsesRequest(await readJsonObject(c));
    const { assistant, session } = turnTarget(c, context);
    const store = context.store;
    const before = await storing(async () =>
      input.previousResponseId === undefined ? [] : store.responses.conversation(input.previousResponseId),
    );
    if (before === undefined) throw notFound(input.previousResponseId!);
    // The calls of ours a client left out of what it sends back are put back in place.
    // The items a client refers to by id are those of the responses kept here.
    const items = await resolveReferences(input.items, (id) =>
      storing(async () => {
        const found = await store.responses.get(id);
        return found === undefined ? undefined : (JSON.parse(found.body) as { output?: unknown[] }).output;
      }),
    );
    const own = memory.splice(itemsToMessages(items, before));
    // The request's pictures, made to fit the model (or a 400 where it cannot see), as chat completions' are.
    const sent =
      input.firstImage === undefined
        ? own
        : await imagesForModel(own, assistant.model, input.firstImage, { signal: c.req.raw.signal });
    const request: CompletionRequest = {
      messages: [...before, ...sent],
      ...(input.system === undefined ? {} : { system: input.system }),
      ...(input.tools.length === 0 ? {} : { clientTools: input.tools }),
      session,
      // No person takes part in a /v1 request: our calls that need approval are refused, unless the config says otherwise (decision 017).
      approvals: context.config.config.server?.v1_approvals ?? 'deny',
      signal: c.req.raw.signal,
      ...requestTraceContext(c),
      // joined with /v1/chat/completions' options
      ...joinedOptions(input, context.config.config.server?.v1),
    };
    const identity: ResponseIdentity = {
      id: `resp_${randomBytes(24).toString('hex')}`,
      createdAt: Math.floor(Date.now() / 1000),
      input,
    };
    const settle = async (output: (OutputMessage | OutputCall)[], result: TurnResult): Promise<object | ApiError> => {
      const endsWithUser = own.at(-1)?.role === 'user';
      const added = [...(endsWithUser ? own.slice(0, -1) : own), ...result.messages];
      if (result.clientCalls !== undefined && result.toolCalls.length > 0)
        memory.remember(result.clientCalls, endsWithUser ? result.messages.slice(1) : result.messages);
      const body = responseBody(identity, { status: 'completed', output, usage: result.usage });
      if (!input.store) return body;
      try {
        await keep(context, session, identity, added, body);
      } catch (error) {
        return error instanceof ApiError ? error : new ApiError(500, 'internal', String(error));
      }
      return body;
    };
    if (input.stream) return streamResponse(c, assistant, request, identity, settle, context.logLanguage);
    const text = new ReplyText();
    // The client waits for the whole answer: the model's replies need not stream either.
    const result = await assistant.complete({ ...request, stream: false, onEvent: (event) => void text.follow(event) });
    const failure = turnFailure(result);
    if (failure !== undefined) return refuse(c, failure);
    const settled = await settle(outputItems(identity.id, text.text, result), result);
    return settled instanceof ApiError ? refuse(c, settled) : c.json(settled);
  });

  app.get('/:id', async (c) => {
    const id = c.req.param('id');
    if (c.req.query('stream') === 'true')
      throw new ApiError(
        400,
        'invalid-request',
        'A stored response is not streamed again here: leave out "stream" to read it whole.',
        'stream',
      );
    const found = await storing(() => context.store.responses.get(id));
    if (found === undefined) throw notFound(id);
    return c.body(found.body, 200, { 'content-type': 'application/json' });
  });

  app.delete('/:id', async (c) => {
    const id = c.req.param('id');
    if (!(await storing(() => context.store.responses.delete(id)))) throw notFound(id);
    return c.json({ id, object: 'response.deleted', deleted: true });
  });
  return app;
}

/**
 * The options `/v1/chat/completions` is adding to `Assistant.complete` (structured output, tool
 * choice, sampling), read from the request as `responseFormat`, `toolChoice` and `sampling`.
 * Until `complete` takes them, a request that sets one is refused, naming the field, rather than
 * answered as if it had not: at merge this returns them instead.
 */
/** The fields /v1/chat/completions also takes, under the same `server.v1` rules. */
function joinedOptions(input: ResponsesInput, rules: V1Settings | null | undefined) {
  const sampling = applySamplingRules(input.sampling ?? {}, rules);
  return {
    ...(sampling === undefined ? {} : { sampling }),
    ...(input.responseFormat === undefined ? {} : { responseFormat: input.responseFormat }),
    ...(input.toolChoice === undefined ? {} : { toolChoice: input.toolChoice }),
  };
}

/** A store operation of a route: its failure is the service's (500 store-failed), said as such. */
async function storing<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await storeCall('Using the stored responses', operation);
  } catch (error) {
    throw new ApiError(500, 'store-failed', error instanceof Error ? error.message : String(error));
  }
}

/** Messages as JSON keeps them: a picture's bytes (a fetched link's, a tool's) as base64 text, which every adapter takes. */
function storable(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((message) => {
    if (
      message.role === 'assistant' ||
      !message.images?.some((image) => image.type === 'image' && typeof image.data !== 'string')
    )
      return message;
    const images = message.images.map((image) =>
      image.type === 'image' && typeof image.data !== 'string'
        ? {
            ...image,
            data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64'),
          }
        : image,
    );
    return { ...message, images };
  });
}

async function keep(
  context: ServerContext,
  session: string,
  identity: ResponseIdentity,
  messages: ChatMessage[],
  body: object,
): Promise<void> {
  try {
    await storeCall('Keeping the response', async () =>
      context.store.responses.add({
        id: identity.id,
        sessionId: (await context.store.session(session)).id,
        ...(identity.input.previousResponseId === undefined ? {} : { previousId: identity.input.previousResponseId }),
        messages: storable(messages),
        body: JSON.stringify(body),
        createdAt: new Date(identity.createdAt * 1000).toISOString(),
      }),
    );
  } catch (error) {
    throw new ApiError(500, 'store-failed', error instanceof Error ? error.message : String(error));
  }
}
