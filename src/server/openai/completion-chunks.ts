import type { TurnResult } from '../../assistant/turn-events.ts';
import type { ToolCallRequest } from '../../models/chat-message.ts';
import type { Usage } from '../../models/chat-model.ts';
import { RIVERSE_MODEL_ID } from './read-completion-request.ts';

/*
 * What `/v1/chat/completions` answers, in OpenAI's shapes: the whole completion, or its chunks as
 * server-sent events — the role first, content deltas, the client's tool calls (the first delta of
 * each with id, type and name and empty arguments, then its arguments by index), a chunk with
 * `finish_reason`, the usage chunk with empty `choices` when asked for, then `data: [DONE]`.
 */

export interface CompletionIdentity {
  /** `chatcmpl-…`, the same in every chunk of one answer. */
  id: string;
  /** Seconds since the epoch. */
  created: number;
}

export type FinishReason = 'stop' | 'tool_calls';

export function finishReason(result: TurnResult): FinishReason {
  return result.stopReason === 'tool-calls' ? 'tool_calls' : 'stop';
}

function usageOf(usage: Usage): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const wireCall = (call: ToolCallRequest) => ({
  id: call.id,
  type: 'function',
  function: { name: call.name, arguments: call.arguments },
});

/** The answer to a request without `stream`. */
export function completionBody(identity: CompletionIdentity, text: string, result: TurnResult): object {
  const calls = result.clientCalls ?? [];
  const message =
    calls.length === 0
      ? { role: 'assistant', content: text, refusal: null }
      : { role: 'assistant', content: text === '' ? null : text, refusal: null, tool_calls: calls.map(wireCall) };
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: RIVERSE_MODEL_ID,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(result) }],
    usage: usageOf(result.usage),
  };
}

/** One SSE event. */
export const sseData = (payload: object | string): string =>
  `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;

/** Ignored by every SSE reader; keeps a proxy from closing a stream while the model is silent. */
export const SSE_KEEP_ALIVE = ': waiting for the model\n\n';

export const SSE_DONE = 'data: [DONE]\n\n';

/** Builds the chunks of one answer; each method returns the SSE text to send. */
export class ChunkWriter {
  readonly #prefix: string;

  constructor(identity: CompletionIdentity) {
    // Every chunk starts alike: that part is serialized once.
    this.#prefix = `data: {"id":${JSON.stringify(identity.id)},"object":"chat.completion.chunk","created":${identity.created},"model":${JSON.stringify(RIVERSE_MODEL_ID)},"choices":`;
  }

  role(): string {
    return this.#choice({ role: 'assistant', content: '' }, null);
  }

  content(text: string): string {
    return this.#choice({ content: text }, null);
  }

  /** The client's calls: each one's id, type and name with empty arguments, then its arguments. */
  toolCalls(calls: readonly ToolCallRequest[]): string {
    let out = '';
    calls.forEach((call, index) => {
      out += this.#choice(
        { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
        null,
      );
      if (call.arguments !== '')
        out += this.#choice({ tool_calls: [{ index, function: { arguments: call.arguments } }] }, null);
    });
    return out;
  }

  finish(reason: FinishReason): string {
    return this.#choice({}, reason);
  }

  usage(usage: Usage): string {
    return `${this.#prefix}[],"usage":${JSON.stringify(usageOf(usage))}}\n\n`;
  }

  #choice(delta: object, finish: FinishReason | null): string {
    return `${this.#prefix}[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]}\n\n`;
  }
}
