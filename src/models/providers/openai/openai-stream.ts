import type { FinishReason, ModelEvent, Usage } from '../../chat-model.ts';
import { badResponse, type ErrorContext } from '../../request-errors.ts';
import { bodyError, finishReason, usageOf } from './openai-response.ts';
import type { CallIdSource } from '../../call-ids.ts';
import type { WireChunk, WireToolCall } from './openai-wire-types.ts';
import { argumentsText, jsonText } from '../../json-text.ts';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Folds the `data` of a chat.completion.chunk stream into ModelEvents. `handle` appends to
 * `events`, which the caller yields and empties; the whole tool calls follow at `finish_reason`.
 */
export class OpenAIStreamState {
  readonly events: ModelEvent[] = [];
  /** `[DONE]` came. */
  done = false;
  /** Set by the chunk with `finish_reason`. */
  reason: FinishReason | undefined = undefined;
  #usage: Usage | undefined = undefined;
  #calls: PendingCall[] = [];
  #context: ErrorContext;
  #nextId: CallIdSource;

  constructor(context: ErrorContext, nextId: CallIdSource) {
    this.#context = context;
    this.#nextId = nextId;
  }

  /** True once the server said the answer is whole (`finish_reason` or `[DONE]`). */
  get complete(): boolean {
    return this.done || this.reason !== undefined;
  }

  handle(data: string): void {
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    if (data === '') return;
    let chunk: WireChunk;
    try {
      chunk = JSON.parse(data) as WireChunk;
    } catch (error) {
      throw badResponse('a stream event that is not JSON', data, this.#context, error);
    }
    if (chunk.error !== undefined && chunk.error !== null) throw bodyError(chunk);
    if (chunk.usage) this.#usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (choice === undefined) return;
    const delta = choice.delta;
    if (delta !== undefined && delta !== null) {
      const content = delta.content;
      if (typeof content === 'string' && content !== '') this.events.push({ type: 'text-delta', text: content });
      const calls = delta.tool_calls;
      if (calls !== undefined && calls !== null) for (const call of calls) this.#toolCallDelta(call);
    }
    const reason = choice.finish_reason;
    if (reason !== undefined && reason !== null && this.reason === undefined) {
      if (chunk.x_groq?.usage) this.#usage = usageOf(chunk.x_groq.usage);
      this.reason = finishReason(reason, this.#calls.length > 0);
      this.#emitCalls();
    }
  }

  /** Appends the closing events: tool calls not yet given (a stream with `[DONE]` but no `finish_reason`), then `finish`. */
  finish(): void {
    if (this.reason === undefined) {
      this.reason = finishReason(undefined, this.#calls.length > 0);
      this.#emitCalls();
    }
    this.events.push(
      this.#usage
        ? { type: 'finish', reason: this.reason, usage: this.#usage }
        : { type: 'finish', reason: this.reason },
    );
  }

  #toolCallDelta(delta: WireToolCall): void {
    const fn = delta.function;
    const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : undefined;
    const name = typeof fn?.name === 'string' && fn.name !== '' ? fn.name : undefined;
    const raw = fn?.arguments;
    const piece = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : jsonText(raw);
    const index = this.#slot(delta.index, id, name);
    let call = this.#calls[index];
    if (call === undefined) {
      call = { id: '', name: '', arguments: '' };
      this.#calls[index] = call;
    }
    if (id !== undefined && call.id === '') call.id = id;
    // Some servers repeat the whole name in every piece; others could split it.
    if (name !== undefined && call.name !== name) call.name += name;
    call.arguments += piece;
    const event: { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta: string } = {
      type: 'tool-call-delta',
      index,
      argumentsDelta: piece,
    };
    if (id !== undefined) event.id = id;
    if (name !== undefined) event.name = name;
    this.events.push(event);
  }

  /** Which call a piece belongs to: its `index`, else (servers that leave it out) its id, else the last call unless a new name starts one. */
  #slot(index: number | undefined, id: string | undefined, name: string | undefined): number {
    if (typeof index === 'number' && index >= 0) return index;
    const calls = this.#calls;
    if (id !== undefined) {
      const known = calls.findIndex((call) => call !== undefined && call.id === id);
      return known === -1 ? calls.length : known;
    }
    const last = calls[calls.length - 1];
    if (last === undefined) return 0;
    if (name === undefined || last.arguments === '') return calls.length - 1;
    // A name after arguments starts another call, unless it repeats the name of one still incomplete.
    return last.name !== name || isWholeJson(last.arguments) ? calls.length : calls.length - 1;
  }

  #emitCalls(): void {
    for (const call of this.#calls) {
      if (call === undefined) continue;
      const id = call.id === '' ? this.#nextId() : call.id;
      this.events.push({ type: 'tool-call', call: { id, name: call.name, arguments: argumentsText(call.arguments) } });
    }
  }
}

function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
