import type { FinishReason, ModelEvent, Usage } from '../../chat-model.ts';
import { ModelError } from '../../model-error.ts';
import { badResponse, serverMessage, type ErrorContext } from '../../request-errors.ts';
import type { WireCompletion, WireError, WireUsage } from './openai-wire-types.ts';
import type { CallIdSource } from '../../call-ids.ts';
import { argumentsText } from '../../json-text.ts';

export function finishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'stop':
    case null:
    case undefined:
      // Ollama and llama.cpp say `stop` after tool calls.
      return hasToolCalls ? 'tool-calls' : 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return hasToolCalls ? 'tool-calls' : 'other';
  }
}

export function usageOf(usage: WireUsage): Usage {
  const result: Usage = {};
  if (typeof usage.prompt_tokens === 'number') result.inputTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') result.outputTokens = usage.completion_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cachedInputTokens = cached;
  return result;
}

/** A 200 whose body is an error (some proxies, and OpenAI mid-stream). */
export function bodyError(body: WireError): ModelError {
  const { message } = serverMessage(JSON.stringify(body));
  return new ModelError('server-error', `the server reported an error: ${message}`, { retryable: true });
}

/** The events of a non-streamed completion, in the order a stream would give them. */
export function completionEvents(text: string, context: ErrorContext, nextId: CallIdSource): ModelEvent[] {
  let body: WireCompletion;
  try {
    body = JSON.parse(text) as WireCompletion;
  } catch (error) {
    throw badResponse('a response that is not JSON', text, context, error);
  }
  if (body === null || typeof body !== 'object') throw badResponse('an unexpected response', text, context);
  if (body.error !== undefined && body.error !== null) throw bodyError(body);
  const choice = body.choices?.[0];
  const message = choice?.message;
  if (message === undefined || message === null)
    throw badResponse('a completion without choices[0].message', text, context);

  const events: ModelEvent[] = [];
  if (typeof message.content === 'string' && message.content !== '')
    events.push({ type: 'text-delta', text: message.content });
  const calls = message.tool_calls;
  const hasCalls = Array.isArray(calls) && calls.length > 0;
  if (hasCalls) {
    for (const call of calls) {
      const id = typeof call.id === 'string' && call.id !== '' ? call.id : nextId();
      events.push({
        type: 'tool-call',
        call: { id, name: call.function?.name ?? '', arguments: argumentsText(call.function?.arguments) },
      });
    }
  }
  const reason = finishReason(choice?.finish_reason, hasCalls);
  events.push(body.usage ? { type: 'finish', reason, usage: usageOf(body.usage) } : { type: 'finish', reason });
  return events;
}
