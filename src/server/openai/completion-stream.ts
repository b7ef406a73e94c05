import type { Context } from 'hono';
import type { Language } from '../../core/language.ts';
import type { Assistant, CompletionRequest } from '../../assistant/assistant.ts';
import { errorBody } from '../api-error.ts';
import { ChunkWriter, finishReason, SSE_DONE, sseData, type CompletionIdentity } from './completion-chunks.ts';
import { streamTurn } from './turn-stream.ts';

/** A turn answered as chunks (turn-stream.ts): a failure once the stream has started is an `error` event, OpenAI's way. */
export function streamCompletion(
  c: Context,
  assistant: Assistant,
  request: CompletionRequest,
  identity: CompletionIdentity,
  includeUsage: boolean,
  logLanguage: Language,
): Promise<Response> {
  const writer = new ChunkWriter(identity);
  return streamTurn(c, assistant, request, {
    route: '/v1/chat/completions',
    logLanguage,
    start: () => writer.role(),
    text: (piece) => writer.content(piece),
    end: (result, failure) =>
      failure !== undefined
        ? sseData(errorBody(c.req.path, failure))
        : writer.toolCalls(result.clientCalls ?? []) +
          writer.finish(finishReason(result)) +
          (includeUsage ? writer.usage(result.usage) : '') +
          SSE_DONE,
  });
}
