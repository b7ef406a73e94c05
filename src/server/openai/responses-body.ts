import type { Usage } from '../../models/chat-model.ts';
import type { ApiError } from '../api-error.ts';
import { RIVERSE_MODEL_ID } from './read-completion-request.ts';
import type { OutputCall, OutputMessage } from './responses-items.ts';
import type { ResponsesInput } from './responses-request.ts';

/** What every state of one response shares: its id, when it began, and the request's settings it echoes. */
export interface ResponseIdentity {
  /** `resp_…`. */
  id: string;
  /** Seconds since the epoch. */
  createdAt: number;
  input: ResponsesInput;
}

type ResponseStatus = 'in_progress' | 'completed' | 'failed';

export interface ResponseState {
  status: ResponseStatus;
  output: (OutputMessage | OutputCall)[];
  usage?: Usage;
  error?: Pick<ApiError, 'code' | 'message'>;
}

/** OpenAI's usage: the model's counts (reasoning and cached tokens where it gives them, else 0). */
function usageOf(usage: Usage): object {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}

/**
 * The response object, in each of its states: `in_progress` with no output yet (the first events
 * of a stream), then `completed` with its output and usage, or `failed` with its error. The
 * sampling fields echo what the request asked (null: the configured model's own).
 */
export function responseBody(identity: ResponseIdentity, state: ResponseState): object {
  const { input } = identity;
  const sampling = input.sampling ?? {};
  const choice = input.toolChoice;
  return {
    id: identity.id,
    object: 'response',
    created_at: identity.createdAt,
    status: state.status,
    background: false,
    completed_at: state.status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    error: state.error === undefined ? null : { code: state.error.code, message: state.error.message },
    incomplete_details: null,
    instructions: input.instructions,
    max_output_tokens: sampling.maxTokens ?? null,
    max_tool_calls: null,
    model: RIVERSE_MODEL_ID,
    output: state.output,
    parallel_tool_calls: true,
    previous_response_id: input.previousResponseId ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: input.store,
    temperature: sampling.temperature ?? null,
    text: {
      format:
        input.responseFormat === undefined
          ? { type: 'text' }
          : input.responseFormat.type === 'json_object'
            ? { type: 'json_object' }
            : {
                type: 'json_schema',
                name: input.responseFormat.name,
                schema: input.responseFormat.schema,
                strict: input.responseFormat.strict ?? false,
              },
    },
    tool_choice:
      choice === undefined ? 'auto' : typeof choice === 'string' ? choice : { type: 'function', name: choice.name },
    tools: input.toolsEcho,
    top_p: sampling.topP ?? null,
    truncation: 'auto',
    usage: state.usage === undefined ? null : usageOf(state.usage),
    user: null,
    metadata: input.metadata,
  };
}
