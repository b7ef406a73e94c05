import type { Context } from 'hono';
import type { Language } from '../../core/language.ts';
import type { Assistant, CompletionRequest } from '../../assistant/assistant.ts';
import type { TurnResult } from '../../assistant/turn-events.ts';
import type { ToolCallRequest } from '../../models/chat-message.ts';
import { ApiError } from '../api-error.ts';
import { responseBody, type ResponseIdentity } from './responses-body.ts';
import { itemId, outputCall, outputMessage, type OutputCall, type OutputMessage } from './responses-items.ts';
import { streamTurn } from './turn-stream.ts';

/**
 * What is done with a finished answer's output before `response.completed`: the response object
 * made of it (and kept, when `store`), or an error saying it could not be, which ends the stream
 * with `response.failed` instead.
 */
export type SettleResponse = (output: (OutputMessage | OutputCall)[], result: TurnResult) => Promise<object | ApiError>;

/**
 * Builds the events of one response, OpenAI's names and fields, each with the next
 * `sequence_number`: `response.created` and `response.in_progress`; the message's
 * `output_item.added`, `content_part.added`, `output_text.delta`s, `output_text.done`,
 * `content_part.done`, `output_item.done`; each client call's `output_item.added`,
 * `function_call_arguments.delta` and `.done`, `output_item.done`; then `response.completed` (or
 * `response.failed`). Each method returns the SSE text to send.
 */
class ResponseEvents {
  readonly #identity: ResponseIdentity;
  #sequence = 0;
  #output: (OutputMessage | OutputCall)[] = [];
  /** The message being written, its id and its text so far. */
  #message: { id: string; text: string } | undefined;

  constructor(identity: ResponseIdentity) {
    this.#identity = identity;
  }

  get output(): (OutputMessage | OutputCall)[] {
    return this.#output;
  }

  start(): string {
    const body = responseBody(this.#identity, { status: 'in_progress', output: [] });
    return (
      this.#event('response.created', { response: body }) + this.#event('response.in_progress', { response: body })
    );
  }

  text(delta: string): string {
    let out = '';
    if (this.#message === undefined) out += this.#openMessage();
    const message = this.#message!;
    message.text += delta;
    return (
      out +
      this.#event('response.output_text.delta', {
        item_id: message.id,
        output_index: this.#output.length,
        content_index: 0,
        delta,
        logprobs: [],
      })
    );
  }

  /** Ends the message (an empty one when the answer has neither text nor calls), then sends the client's calls. */
  finish(calls: readonly ToolCallRequest[]): string {
    let out = '';
    if (this.#message === undefined && calls.length === 0) out += this.#openMessage();
    if (this.#message !== undefined) out += this.#closeMessage();
    for (const call of calls) {
      const item = outputCall(itemId('fc', this.#identity.id), call);
      const index = this.#output.length;
      out += this.#event('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      if (call.arguments !== '')
        out += this.#event('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index: index,
          delta: call.arguments,
        });
      out += this.#event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        name: call.name,
        arguments: call.arguments,
      });
      out += this.#event('response.output_item.done', { output_index: index, item });
      this.#output.push(item);
    }
    return out;
  }

  completed(response: object): string {
    return this.#event('response.completed', { response });
  }

  /** The response failed: what was said so far, and why. */
  failed(error: ApiError, result?: TurnResult): string {
    const partial =
      this.#message === undefined
        ? []
        : [{ ...outputMessage(this.#message.id, this.#message.text), status: 'incomplete' as const }];
    const body = responseBody(this.#identity, {
      status: 'failed',
      output: [...this.#output, ...(partial as unknown as OutputMessage[])],
      ...(result === undefined ? {} : { usage: result.usage }),
      error,
    });
    return this.#event('response.failed', { response: body });
  }

  #openMessage(): string {
    this.#message = { id: itemId('msg', this.#identity.id), text: '' };
    const index = this.#output.length;
    return (
      this.#event('response.output_item.added', {
        output_index: index,
        item: { id: this.#message.id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      }) +
      this.#event('response.content_part.added', {
        item_id: this.#message.id,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
      })
    );
  }

  #closeMessage(): string {
    const { id, text } = this.#message!;
    this.#message = undefined;
    const index = this.#output.length;
    const item = outputMessage(id, text);
    this.#output.push(item);
    return (
      this.#event('response.output_text.done', {
        item_id: id,
        output_index: index,
        content_index: 0,
        text,
        logprobs: [],
      }) +
      this.#event('response.content_part.done', {
        item_id: id,
        output_index: index,
        content_index: 0,
        part: item.content[0],
      }) +
      this.#event('response.output_item.done', { output_index: index, item })
    );
  }

  #event(type: string, fields: object): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.#sequence++, ...fields })}\n\n`;
  }
}

/**
 * A turn answered as Responses events (turn-stream.ts): a failure once the stream has started is
 * `response.failed`.
 */
export function streamResponse(
  c: Context,
  assistant: Assistant,
  request: CompletionRequest,
  identity: ResponseIdentity,
  settle: SettleResponse,
  logLanguage: Language,
): Promise<Response> {
  const events = new ResponseEvents(identity);
  return streamTurn(c, assistant, request, {
    route: '/v1/responses',
    logLanguage,
    start: () => events.start(),
    text: (piece) => events.text(piece),
    end: async (result, failure) => {
      if (failure !== undefined) return events.failed(failure, result);
      const items = events.finish(result.clientCalls ?? []);
      const settled = await settle(events.output, result);
      return items + (settled instanceof ApiError ? events.failed(settled, result) : events.completed(settled));
    },
  });
}
