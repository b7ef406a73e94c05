import type { Language } from '../../core/language.ts';
import { SERVER_TEXT } from '../server-text.ts';
import type { Context } from 'hono';
import type { Assistant, CompletionRequest } from '../../assistant/assistant.ts';
import { followSignal } from '../../assistant/follow-signal.ts';
import type { TurnResult } from '../../assistant/turn-events.ts';
import type { ApiError } from '../api-error.ts';
import { SSE_KEEP_ALIVE } from './completion-chunks.ts';
import { ReplyText } from './reply-text.ts';
import { refuse, turnFailure } from './turn-failure.ts';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/** How one /v1 API writes a streamed turn: chat completions' chunks, or the Responses API's events. */
export interface TurnStreamShape {
  /** The route, for the log. */
  route: string;
  /** The language of the service's log (of the person who started it). */
  logLanguage: Language;
  /** What opens the stream, sent just before its first piece. */
  start(): string;
  /** A piece of the answer's text. */
  text(piece: string): string;
  /** What ends it: the turn's failure once the stream has started, or its last events (once the response is kept, for the Responses API). */
  end(result: TurnResult, failure: ApiError | undefined): string | Promise<string>;
}

/**
 * A turn answered as server-sent events. The response starts with the turn's first sign of life
 * (text, a call of ours, or the model silent for a while, which also sends a keep-alive comment), so
 * that a turn failing before it (no model reachable, the request's tools refused) is an HTTP error
 * like the plain answer's; a failure after it is written by `shape.end`. Closing the connection, or
 * the request going away, cancels the turn.
 */
export function streamTurn(
  c: Context,
  assistant: Assistant,
  request: CompletionRequest,
  shape: TurnStreamShape,
): Promise<Response> {
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
    const enqueue = (chunk: string) => {
      if (chunk !== '' && !cancel.signal.aborted) controller.enqueue(encoder.encode(chunk));
    };
    // A piece is made only once the start is out, so that numbered events follow the start's number.
    const send = (make: () => string) => {
      if (!started) {
        started = true;
        resolve(new Response(body, { headers: SSE_HEADERS }));
        enqueue(shape.start());
      }
      enqueue(make());
    };
    const unfollow = followSignal(request.signal, cancel);
    const turn = assistant.complete({
      ...request,
      signal: cancel.signal,
      onEvent: (event) => {
        const piece = text.follow(event);
        if (piece !== '') send(() => shape.text(piece));
        else if (event.type === 'tool-call') send(() => '');
        else if (event.type === 'model-waiting') send(() => SSE_KEEP_ALIVE);
      },
    });
    void turn
      .finally(unfollow)
      .then(async (result) => {
        const failure = turnFailure(result);
        if (failure !== undefined && !started) return resolve(refuse(c, failure));
        send(() => ''); // the start is out before the end's numbered events are made
        enqueue(await shape.end(result, failure));
        if (!cancel.signal.aborted) controller.close();
      })
      .catch((error: unknown) => {
        // Only a bug gets here (complete never throws): the stream ends, the log says why.
        console.error(
          SERVER_TEXT[shape.logLanguage].requestFailed(
            shape.route,
            error instanceof Error ? (error.stack ?? error.message) : String(error),
          ),
        );
        if (!started) resolve(new Response(null, { status: 500 }));
        else if (!cancel.signal.aborted) controller.error(error);
      });
  });
}
