import type { ChatMessage, MessageImage } from '../models/chat-message.ts';
import type { ChatModel, FinishReason, Usage } from '../models/chat-model.ts';
import { ModelError } from '../models/model-error.ts';
import type { ExecuteOptions } from '../tool-runtime/execute-tool.ts';
import type { SampleRequest, SampleResult, SamplingContent } from '../tools/sample-request.ts';
import type { TurnTracer } from './turn-tracer.ts';

// A tool's `context.sample` inside Riverse's own turn: the turn's model answers, as one plain
// request (no tools, no history), within a time limit and a token cap of its own (decision 040),
// traced as a model request under the call's span.

/** The most tokens a tool's sample may ask of the turn's model, whatever its `maxTokens` says. */
export const SAMPLE_MAX_TOKENS = 4_096;
/** How long the turn's model has for a tool's sample, whatever its `timeoutMs` says. */
const SAMPLE_MAX_MS = 120_000;
const SAMPLE_DEFAULT_MS = 60_000;

/** A sampler for one call of the turn: its model, its trace. */
export function modelSampler(
  model: ChatModel,
  callId: string,
  tracer: TurnTracer | undefined,
): NonNullable<ExecuteOptions['sample']> {
  return async (request, signal) => {
    const limit = Math.min(request.timeoutMs ?? SAMPLE_DEFAULT_MS, SAMPLE_MAX_MS);
    const span = tracer?.toolSample(callId);
    let text = '';
    let finish: FinishReason = 'other';
    let usage: Usage | undefined;
    try {
      for await (const event of model.stream({
        ...(request.systemPrompt === undefined ? {} : { system: request.systemPrompt }),
        messages: request.messages.map(chatMessage),
        sampling: {
          maxTokens: Math.min(request.maxTokens, SAMPLE_MAX_TOKENS),
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(request.stopSequences === undefined ? {} : { stop: request.stopSequences }),
        },
        signal: AbortSignal.any([signal, AbortSignal.timeout(limit)]),
      })) {
        if (event.type === 'text-delta') text += event.text;
        else if (event.type === 'finish') {
          finish = event.reason;
          usage = event.usage;
        }
      }
    } catch (error) {
      const code = error instanceof ModelError ? error.code : signal.aborted ? 'aborted' : 'timeout';
      span?.end({ code });
      if (signal.aborted) throw error;
      throw new Error(
        code === 'timeout' || (error instanceof Error && error.name === 'TimeoutError')
          ? `the model (${model.id}) did not answer context.sample within ${limit / 1000} s`
          : `the model (${model.id}) could not answer context.sample: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    span?.end({ finish, ...(usage === undefined ? {} : { usage }) });
    return sampleResult(model.id, text, finish);
  };
}

/** A sampling message as the model's conversation takes it: its text, its pictures beside it. */
function chatMessage(message: SampleRequest['messages'][number]): ChatMessage {
  const parts: SamplingContent[] = Array.isArray(message.content) ? message.content : [message.content];
  const content = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  if (message.role === 'assistant') return { role: 'assistant', content };
  const images: MessageImage[] = parts.flatMap((part) =>
    part.type === 'image' ? [{ type: 'image' as const, data: part.data, mimeType: part.mimeType }] : [],
  );
  return { role: 'user', content, ...(images.length === 0 ? {} : { images }) };
}

/** The reply in MCP's words: `endTurn`, `maxTokens`, or the finish as the model gave it. */
function sampleResult(model: string, text: string, finish: FinishReason): SampleResult {
  const stopReason = finish === 'stop' ? 'endTurn' : finish === 'length' ? 'maxTokens' : finish;
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason };
}
