import type { Context } from 'hono';
import type { Assistant, CompletionRequest } from '../../assistant/assistant.ts';
import { followSignal } from '../../assistant/follow-signal.ts';
import { errorBody } from '../api-error.ts';
import {
  ChunkWriter,
  finishReason,
  SSE_DONE,
  SSE_KEEP_ALIVE,
  sseData,
  type CompletionIdentity,
} from './completion-chunks.ts';
import { ReplyText } from './reply-text.ts';
import { refuse, turnFailure } from './turn-failure.ts';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/**
 * A turn answered as chunks. The response starts with the turn's first sign of life (text, a
 * call of ours, or the model silent for a while, which also sends a keep-alive comment), so
 * that a turn failing before it (no model reachable, the request's tools refused) is an HTTP
 * error like the plain answer's; a failure after it is an `error` event, OpenAI's way. Closing the
 * connection cancels the turn.
 */
export function streamCompletion(
  c: Context,
  assistant: Assistant,
  request: CompletionRequest,
  identity: CompletionIdentity,
  includeUsage: boolean,
): Promise<Response> {
  const writer = new ChunkWriter(identity);
  const text = new ReplyText();
  const encoder = new TextEncoder();
  const cancel = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (it) => void (controller = it),
    cancel: () => cancel.abort(new DOMException('the client closed the stream', 'AbortError')),
  });
  return new Promise<Response>((resolve) => {
    let started = false;
    const send = (chunk: string) => {
      if (!started) {
        started = true;
        chunk = writer.role() + chunk;
        resolve(new Response(body, { headers: SSE_HEADERS }));
      }
      if (chunk !== '' && !cancel.signal.aborted) controller.enqueue(encoder.encode(chunk));
    };
    // The request going away cancels the turn as the client closing the stream does.
    const unfollow = followSignal(request.signal, cancel);
    const turn = assistant.complete({
      ...request,
      signal: cancel.signal,
      onEvent: (event) => {
        const piece = text.follow(event);
        if (piece !== '') send(writer.content(piece));
        else if (event.type === 'tool-call') send('');
        else if (event.type === 'model-waiting') send(SSE_KEEP_ALIVE);
      },
    });
    void turn
      .finally(unfollow)
      .then((result) => {
        const failure = turnFailure(result);
        if (failure !== undefined && !started) return resolve(refuse(c, failure));
        send(
          failure !== undefined
            ? sseData(errorBody(c.req.path, failure))
            : writer.toolCalls(result.clientCalls ?? []) +
                writer.finish(finishReason(result)) +
                (includeUsage ? writer.usage(result.usage) : '') +
                SSE_DONE,
        );
        if (!cancel.signal.aborted) controller.close();
      })
      .catch((error: unknown) => {
        // Only a bug gets here (complete never throws): the stream ends, the log says why.
        console.error(
          `riverse serve: /v1/chat/completions: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        if (!started) resolve(new Response(null, { status: 500 }));
        else if (!cancel.signal.aborted) controller.error(error);
      });
  });
}
