import type { ModelEvent, Usage } from '../../chat-model.ts';
import { anthropicBadResponse, anthropicBodyError } from './anthropic-errors.ts';
import { addAnthropicUsage, anthropicFinishReason, inputText } from './anthropic-response.ts';
import type { AnthropicStreamEvent } from './anthropic-wire-types.ts';
import type { ErrorContext } from '../../request-errors.ts';
import type { CallIdSource } from '../../call-ids.ts';

/** A tool_use block being streamed. */
interface PendingCall {
  /** Its place among the reply's tool calls (what `tool-call-delta` events carry). */
  index: number;
  id: string;
  name: string;
  json: string;
  /** `input` as content_block_start gave it: Anthropic sends `{}` and streams the rest. */
  input: unknown;
  emitted: boolean;
}

/**
 * Folds the events of a Messages stream into ModelEvents. `handle` appends to `events`, which the
 * caller yields and empties; each tool call follows whole at its block's `content_block_stop`.
 */
export class AnthropicStreamState {
  readonly events: ModelEvent[] = [];
  /** `message_stop` came. */
  done = false;
  #reason: string | undefined = undefined;
  #usage: Usage = {};
  /** Tool calls by content block index. */
  #calls = new Map<number, PendingCall>();
  #context: ErrorContext;
  #nextId: CallIdSource;

  constructor(context: ErrorContext, nextId: CallIdSource) {
    this.#context = context;
    this.#nextId = nextId;
  }

  /** True once the server said the reply is whole (`message_stop`, or a stop reason in `message_delta`). */
  get complete(): boolean {
    return this.done || this.#reason !== undefined;
  }

  handle(data: string): void {
    if (data === '') return;
    let event: AnthropicStreamEvent;
    try {
      event = JSON.parse(data) as AnthropicStreamEvent;
    } catch (error) {
      throw anthropicBadResponse('a stream event that is not JSON', data, this.#context, error);
    }
    switch (event?.type) {
      case 'message_start':
        addAnthropicUsage(this.#usage, event.message?.usage);
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'text') {
          if (typeof block.text === 'string' && block.text !== '')
            this.events.push({ type: 'text-delta', text: block.text });
        } else if (block?.type === 'tool_use') {
          const id = typeof block.id === 'string' && block.id !== '' ? block.id : this.#nextId();
          const name = typeof block.name === 'string' ? block.name : '';
          const call: PendingCall = { index: this.#calls.size, id, name, json: '', input: block.input, emitted: false };
          this.#calls.set(event.index, call);
          this.events.push({ type: 'tool-call-delta', index: call.index, id, name, argumentsDelta: '' });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'text_delta') {
          if (typeof delta.text === 'string' && delta.text !== '')
            this.events.push({ type: 'text-delta', text: delta.text });
        } else if (delta?.type === 'input_json_delta') {
          const call = this.#calls.get(event.index);
          const piece = delta.partial_json;
          if (call !== undefined && typeof piece === 'string' && piece !== '') {
            call.json += piece;
            this.events.push({ type: 'tool-call-delta', index: call.index, argumentsDelta: piece });
          }
        }
        // thinking_delta, signature_delta, citations: not part of the neutral reply
        break;
      }
      case 'content_block_stop': {
        const call = this.#calls.get(event.index);
        if (call !== undefined) this.#emit(call);
        break;
      }
      case 'message_delta':
        if (typeof event.delta?.stop_reason === 'string') this.#reason = event.delta.stop_reason;
        addAnthropicUsage(this.#usage, event.usage);
        break;
      case 'message_stop':
        this.done = true;
        break;
      case 'error':
        throw anthropicBodyError(event.error, this.#context);
      // `ping`, and event types added later, carry nothing for us.
    }
  }

  /** Appends the closing events: tool calls whose block never stopped, then `finish`. */
  finish(): void {
    for (const call of this.#calls.values()) this.#emit(call);
    const reason = anthropicFinishReason(this.#reason, this.#calls.size > 0);
    const usage = this.#usage;
    this.events.push(
      usage.inputTokens !== undefined || usage.outputTokens !== undefined
        ? { type: 'finish', reason, usage }
        : { type: 'finish', reason },
    );
  }

  #emit(call: PendingCall): void {
    if (call.emitted) return;
    call.emitted = true;
    // No deltas: a server that gave the whole input at the start (or a call without arguments).
    const args = call.json !== '' ? call.json : inputText(call.input);
    this.events.push({ type: 'tool-call', call: { id: call.id, name: call.name, arguments: args } });
  }
}
