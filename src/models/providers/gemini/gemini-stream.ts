import type { FinishReason, ModelEvent, Usage } from '../../chat-model.ts';
import type { GeminiCallMemory } from './gemini-call-memory.ts';
import { geminiBodyError } from './gemini-errors.ts';
import type { GeminiFunctionCall, GeminiResponse, GeminiUsage } from './gemini-wire-types.ts';
import { badResponse, type ErrorContext } from '../../request-errors.ts';
import type { CallIdSource } from '../../call-ids.ts';
import { argumentsText } from '../../json-text.ts';

/**
 * Folds GenerateContentResponse chunks into ModelEvents. Each SSE event is a whole response
 * holding the next parts; a plain (non-streamed) response is one chunk. `handle` appends to
 * `events`, which the caller yields and empties. Function calls arrive whole, so each is given at
 * once (in a stream also as one `tool-call-delta`, for display).
 */
export class GeminiStreamState {
  readonly events: ModelEvent[] = [];
  /** The candidate's finishReason, once one came. */
  wireReason: string | undefined = undefined;
  #blocked = false;
  #usage: Usage | undefined = undefined;
  #calls = 0;
  #context: ErrorContext;
  #nextId: CallIdSource;
  #memory: GeminiCallMemory;
  #deltas: boolean;

  constructor(context: ErrorContext, nextId: CallIdSource, memory: GeminiCallMemory, streaming: boolean) {
    this.#context = context;
    this.#nextId = nextId;
    this.#memory = memory;
    this.#deltas = streaming;
  }

  /** True once the server said the answer is whole: a finishReason, or a blocked prompt. */
  get complete(): boolean {
    return this.wireReason !== undefined || this.#blocked;
  }

  /** The `data` of one SSE event. */
  handle(data: string): void {
    if (data === '' || data === '[DONE]') return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (error) {
      throw badResponse('a stream event that is not JSON', data, this.#context, error);
    }
    this.handleChunk(chunk, data);
  }

  handleChunk(value: unknown, text: string): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw badResponse('an unexpected response', text, this.#context);
    const chunk = value as GeminiResponse;
    if (chunk.error !== undefined && chunk.error !== null) throw geminiBodyError(chunk, this.#context);
    if (chunk.usageMetadata) this.#usage = usageOf(chunk.usageMetadata);
    if (typeof chunk.promptFeedback?.blockReason === 'string') this.#blocked = true;
    const candidate = chunk.candidates?.[0];
    if (candidate === undefined || candidate === null) return;
    const parts = candidate.content?.parts;
    if (Array.isArray(parts)) {
      for (const part of parts) {
        if (part === null || typeof part !== 'object' || part.thought === true) continue;
        if (typeof part.text === 'string' && part.text !== '')
          this.events.push({ type: 'text-delta', text: part.text });
        if (part.functionCall)
          this.#call(part.functionCall, typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined);
      }
    }
    const reason = candidate.finishReason;
    if (typeof reason === 'string' && reason !== '' && reason !== 'FINISH_REASON_UNSPECIFIED') this.wireReason = reason;
  }

  /** Appends `finish`. Without a finishReason (a plain response may leave it out) the answer counts as stopped. */
  finish(): void {
    const reason =
      this.#blocked && this.wireReason === undefined
        ? 'content-filter'
        : finishReason(this.wireReason, this.#calls > 0);
    this.events.push(this.#usage ? { type: 'finish', reason, usage: this.#usage } : { type: 'finish', reason });
  }

  #call(call: GeminiFunctionCall, signature: string | undefined): void {
    const name = typeof call.name === 'string' ? call.name : '';
    const args = argumentsText(call.args);
    const serverId = typeof call.id === 'string' && call.id !== '';
    const id = serverId ? call.id! : this.#nextId();
    this.#memory.remember(id, signature, serverId);
    const index = this.#calls++;
    if (this.#deltas) this.events.push({ type: 'tool-call-delta', index, id, name, argumentsDelta: args });
    this.events.push({ type: 'tool-call', call: { id, name, arguments: args } });
  }
}

function finishReason(wire: string | undefined, hasCalls: boolean): FinishReason {
  switch (wire) {
    case undefined:
    case 'STOP':
      // Gemini says STOP after function calls too.
      return hasCalls ? 'tool-calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content-filter';
    default:
      return hasCalls ? 'tool-calls' : 'other';
  }
}

/** Thinking tokens are billed as output: they count with the candidates'. */
function usageOf(usage: GeminiUsage): Usage {
  const result: Usage = {};
  if (typeof usage.promptTokenCount === 'number') result.inputTokens = usage.promptTokenCount;
  const candidates = typeof usage.candidatesTokenCount === 'number' ? usage.candidatesTokenCount : undefined;
  const thoughts = typeof usage.thoughtsTokenCount === 'number' ? usage.thoughtsTokenCount : undefined;
  if (candidates !== undefined || thoughts !== undefined) result.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  if (thoughts !== undefined) result.reasoningTokens = thoughts;
  if (typeof usage.cachedContentTokenCount === 'number') result.cachedInputTokens = usage.cachedContentTokenCount;
  return result;
}
