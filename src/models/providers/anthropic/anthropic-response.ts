import type { FinishReason, ModelEvent, Usage } from '../../chat-model.ts';
import { anthropicBadResponse, anthropicBodyError } from './anthropic-errors.ts';
import type { AnthropicResponse, AnthropicToolUseBlock, AnthropicUsage } from './anthropic-wire-types.ts';
import type { ErrorContext } from '../../request-errors.ts';
import type { CallIdSource } from '../../call-ids.ts';
import { jsonText } from '../../json-text.ts';

export function anthropicFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'tool_use':
      return 'tool-calls';
    case 'end_turn':
    case 'stop_sequence':
    case null:
    case undefined:
      return hasToolCalls ? 'tool-calls' : 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      // `pause_turn` (a server tool ran long) and reasons added later.
      return hasToolCalls ? 'tool-calls' : 'other';
  }
}

/** Adds what `usage` says to `into`; input counts cached tokens too, as they were all read. */
export function addAnthropicUsage(into: Usage, usage: AnthropicUsage | undefined | null): void {
  if (usage === undefined || usage === null) return;
  const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens].filter(
    (n) => typeof n === 'number',
  );
  if (parts.length > 0) into.inputTokens = parts.reduce((sum, n) => sum + n, 0);
  if (typeof usage.output_tokens === 'number') into.outputTokens = usage.output_tokens;
  if (typeof usage.cache_read_input_tokens === 'number') into.cachedInputTokens = usage.cache_read_input_tokens;
}

/** A tool_use block's `input` as the JSON text a ToolCallRequest carries. */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input === '' ? '{}' : input;
  return input === undefined || input === null ? '{}' : jsonText(input);
}

/** The events of a non-streamed reply, in the order a stream would give them. */
export function anthropicMessageEvents(text: string, context: ErrorContext, nextId: CallIdSource): ModelEvent[] {
  let body: AnthropicResponse;
  try {
    body = JSON.parse(text) as AnthropicResponse;
  } catch (error) {
    throw anthropicBadResponse('a response that is not JSON', text, context, error);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw anthropicBadResponse('an unexpected response', text, context);
  if (body.type === 'error') throw anthropicBodyError(body.error, context);
  if (!Array.isArray(body.content)) throw anthropicBadResponse('a reply without content', text, context);

  const events: ModelEvent[] = [];
  let hasCalls = false;
  for (const block of body.content) {
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
      events.push({ type: 'text-delta', text: block.text });
    } else if (block.type === 'tool_use') {
      const use = block as AnthropicToolUseBlock;
      const id = typeof use.id === 'string' && use.id !== '' ? use.id : nextId();
      events.push({ type: 'tool-call', call: { id, name: use.name ?? '', arguments: inputText(use.input) } });
      hasCalls = true;
    }
    // thinking and server-tool blocks are not part of the neutral reply
  }
  const usage: Usage = {};
  addAnthropicUsage(usage, body.usage);
  const reason = anthropicFinishReason(body.stop_reason, hasCalls);
  events.push(
    usage.inputTokens !== undefined || usage.outputTokens !== undefined
      ? { type: 'finish', reason, usage }
      : { type: 'finish', reason },
  );
  return events;
}
