import type { ModelRequest, RetryNotice, Usage } from '../models/chat-model.ts';
import { describeUnseenImages } from './describe-images.ts';
import { refuseClientTools } from './prepare-tools.ts';
import { requestModel, type ModelReply } from './request-model.ts';
import { formatInstructionSchema } from './structured-output.ts';
import { textProtocolInstructions } from './text-protocol/instructions.ts';
import { nextToolChoice, toolsWithheld } from './tool-choice.ts';
import { rejectsNativeTools } from './text-only-models.ts';
import type { TurnState } from './turn-state.ts';
import { AGAIN, end, type Again, type End } from './turn-step.ts';
import type { TurnTools } from './turn-tools.ts';

export type Asked = { kind: 'reply'; reply: ModelReply } | Again | End;

/**
 * Asks the model for its next reply: with the tools, or (`last`) without them, told to answer with
 * what it has. A model that refuses native tools is remembered (turn.textOnly) and the round is
 * asked again in the text protocol — unless native tool calling was set, when the refusal is the
 * turn's error, or the caller's tools need it.
 */
export async function askModel(turn: TurnState, tools: TurnTools, last: boolean): Promise<Asked> {
  const { options, text } = turn;
  const textMode = turn.mode === 'text';
  const withTools = !last && tools.any && !toolsWithheld(turn);
  const choice = withTools ? nextToolChoice(turn, tools) : undefined;
  const format = options.responseFormat;
  const tracer = options.tracer;
  // The text protocol has no way to force a call: the model is told to make one.
  const mustCall =
    textMode && choice !== undefined ? text.mustCall(typeof choice === 'string' ? undefined : choice.name) : undefined;
  const note = last ? (turn.stopNote ?? text.roundLimit(turn.maxRounds)) : (turn.roundNote ?? mustCall);
  let toolSection = textMode && withTools ? textProtocolInstructions(tools.definitions, options.language) : undefined;
  if (format !== undefined) {
    const said = text.answerFormat(formatInstructionSchema(format));
    toolSection = toolSection === undefined ? said : `${toolSection}\n\n${said}`;
  }
  const request: ModelRequest = {
    system: systemPrompt(text.systemPrompt(today(options.now)), options.system, toolSection, note),
    // A model that cannot see (or not pictures of a type) is told what pictures there are instead.
    messages: describeUnseenImages(turn.conversation, turn.model, text),
    stream: options.stream ?? true,
    ...(!textMode && withTools ? { tools: tools.definitions } : {}),
    ...(!textMode && choice !== undefined ? { toolChoice: choice } : {}),
    // In the text protocol a reply may be a call written as text: JSON mode would forbid it.
    ...(format !== undefined && (!textMode || !withTools) ? { responseFormat: format } : {}),
    ...(options.sampling === undefined ? {} : { sampling: options.sampling }),
    signal: turn.signal,
    deadline: turn.deadline,
    // The W3C trace context of the attempt being sent: its span in the turn's trace (asked at each attempt).
    ...(tracer?.propagates === true ? { traceparent: () => tracer.traceparent() } : {}),
    // The adapter's own retries (429, 5xx, network) are requests too, and the user is told of the wait.
    onRetry: ({ attempt, delayMs, error }: RetryNotice) => {
      turn.requests++;
      tracer?.modelRetry(error.code, delayMs);
      turn.emit({ type: 'model-retry', attempt, delayMs, error: { code: error.code, message: error.message } });
    },
  };
  let reply: ModelReply;
  try {
    // A text-protocol reply with tools is shown once it is read: it may be a call.
    // An answer in a format asked for is shown once it is checked (structured-output.ts).
    const showText = (!textMode || !withTools) && format === undefined;
    reply = await requestModel(
      turn.model,
      request,
      turn.emit,
      showText,
      () => {
        turn.requests++;
        tracer?.modelSend(request);
      },
      options.waitNoticeMs,
      tracer === undefined ? undefined : () => tracer.modelFirstEvent(),
    );
    tracer?.modelReply(reply.finish, reply.usage, reply);
  } catch (error) {
    tracer?.modelFailed(
      typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'internal',
    );
    if (turn.mode !== 'native' || !rejectsNativeTools(error)) throw error;
    turn.textOnly.add(turn.model);
    if (options.toolCalling === 'native') throw error;
    if (tools.client !== undefined) return end(refuseClientTools(turn));
    turn.mode = 'text';
    return AGAIN;
  }
  if (reply.usage !== undefined) addUsage(turn.usage, reply.usage);
  turn.roundNote = undefined;
  return { kind: 'reply', reply };
}

function systemPrompt(
  base: string,
  caller: string | undefined,
  toolSection: string | undefined,
  note: string | undefined,
): string {
  if (caller === undefined && toolSection === undefined && note === undefined) return base;
  return [base, caller, toolSection, note].filter((part) => part !== undefined && part !== '').join('\n\n');
}

function addUsage(total: Usage, usage: Usage): void {
  if (usage.inputTokens !== undefined) total.inputTokens = (total.inputTokens ?? 0) + usage.inputTokens;
  if (usage.outputTokens !== undefined) total.outputTokens = (total.outputTokens ?? 0) + usage.outputTokens;
  if (usage.reasoningTokens !== undefined) total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens;
  if (usage.cachedInputTokens !== undefined)
    total.cachedInputTokens = (total.cachedInputTokens ?? 0) + usage.cachedInputTokens;
}

let todayCache = { day: Number.NaN, date: '' };

/** The UTC date (YYYY-MM-DD), formatted once per day: every request asks for it, and Date formatting is slow. */
function today(now?: Date): string {
  const time = now === undefined ? Date.now() : now.getTime();
  const day = Math.floor(time / 86_400_000);
  if (day !== todayCache.day) todayCache = { day, date: new Date(time).toISOString().slice(0, 10) };
  return todayCache.date;
}
