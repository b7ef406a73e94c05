import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import type { ChatModel, ModelRequest, RetryNotice, ToolCallingMode, Usage } from '../models/chat-model.ts';
import { ModelError } from '../models/model-error.ts';
import type { ToolRegistry } from '../tools/tool-registry.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { ASSISTANT_TEXT } from './assistant-text.ts';
import { requestModel, type ModelReply } from './request-model.ts';
import { runToolCalls } from './run-tool-calls.ts';
import { formatToolResultsForText, parseTextToolCalls, textProtocolInstructions, textProtocolRepair } from './text-protocol.ts';
import { cachedToolDefinitions } from './tool-definitions.ts';
import type { StopReason, ToolCallRecord, TurnEvent, TurnResult } from './turn-events.ts';

export interface TurnOptions {
  model: ChatModel;
  registry: ToolRegistry;
  /** The conversation so far (already trimmed to the budget). */
  history: readonly ChatMessage[];
  /** The user's message. */
  input: string;
  language: Language;
  /** Default: the model's own mode. */
  toolCalling?: ToolCallingMode;
  /** Rounds of tool calls before the model must answer with what it has (default 6). */
  maxRounds?: number;
  /** Stream model replies on the wire (default true). */
  stream?: boolean;
  signal?: AbortSignal;
  sessionId?: string;
  onEvent?: (event: TurnEvent) => void;
  /** For the date in the system prompt. */
  now?: Date;
}

/** Models found to reject native tools in this process; they use the text protocol from then on. */
const textOnlyModels = new Set<string>();

/**
 * One turn: the user's message → the model sees the tools → zero or more rounds of calls, run in
 * parallel, every result (failures included) returned to the model → the final reply. A turn
 * without tool calls costs one model request; with one round of calls, two. Never throws: model
 * failures and cancellation end the turn with a stop reason, keeping every completed message.
 */
export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const { model, registry, language, signal } = options;
  const text = ASSISTANT_TEXT[language];
  const emit = options.onEvent ?? (() => {});
  let mode: ToolCallingMode = textOnlyModels.has(model.id) ? 'text' : (options.toolCalling ?? model.toolCalling);
  const maxRounds = options.maxRounds ?? 6;
  // Native tools are shown in the provider's dialect; the text protocol shows plain JSON Schema.
  const dialectFor = (current: ToolCallingMode) => (current === 'native' ? model.dialect : undefined);
  let definitions = cachedToolDefinitions(registry, language, dialectFor(mode));
  const hasTools = definitions.length > 0;

  const conversation: ChatMessage[] = [...options.history];
  const added: ChatMessage[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const usage: Usage = {};
  const failures = new Map<string, number>();
  let requests = 0;
  let repaired = false;
  let stopNote: string | undefined;

  const commit = (...messages: ChatMessage[]) => {
    conversation.push(...messages);
    added.push(...messages);
    emit({ type: 'messages', messages });
  };
  const finish = (stopReason: StopReason, reply: string, error?: TurnResult['error']): TurnResult => {
    const result: TurnResult = { text: reply, stopReason, messages: added, toolCalls, requests, usage, ...(error === undefined ? {} : { error }) };
    emit({ type: 'done', result });
    return result;
  };
  const countRequest = () => {
    requests++;
  };
  // The adapter's own retries (429, 5xx, network) are requests too, and the user is told of the wait.
  const onRetry = ({ attempt, delayMs, error }: RetryNotice) => {
    requests++;
    emit({ type: 'model-retry', attempt, delayMs, error: { code: error.code, message: error.message } });
  };
  const ask = async (withTools: boolean, note?: string): Promise<ModelReply> => {
    const textMode = mode === 'text';
    const request: ModelRequest = {
      system: systemPrompt(text.systemPrompt(today(options.now)), textMode && withTools && hasTools ? textProtocolInstructions(definitions, language) : undefined, note),
      messages: conversation,
      stream: options.stream ?? true,
      ...(!textMode && withTools && hasTools ? { tools: definitions } : {}),
      ...(signal === undefined ? {} : { signal }),
      onRetry,
    };
    const reply = await requestModel(model, request, emit, !textMode || !withTools || !hasTools, countRequest);
    if (reply.usage !== undefined) addUsage(usage, reply.usage);
    return reply;
  };

  commit({ role: 'user', content: options.input });
  try {
    for (let round = 0; ; round++) {
      const last = round >= maxRounds || stopNote !== undefined;
      let reply: ModelReply;
      try {
        reply = await ask(!last, last ? (stopNote ?? text.roundLimit(maxRounds)) : undefined);
      } catch (error) {
        if (mode === 'native' && rejectsNativeTools(error)) {
          textOnlyModels.add(model.id);
          mode = 'text';
          definitions = cachedToolDefinitions(registry, language, undefined);
          round--;
          continue;
        }
        throw error;
      }

      let calls: ToolCallRequest[] = reply.calls;
      let answer = reply.text;
      if (mode === 'text' && !last && hasTools) {
        const parsed = parseTextToolCalls(reply.text);
        if (parsed.kind === 'invalid') {
          if (repaired) return finish('error', parsed.text || text.unparsableCall(parsed.error), { code: 'unparsable-tool-call', message: parsed.error });
          repaired = true;
          emit({ type: 'retry', reason: parsed.error });
          commit({ role: 'assistant', content: reply.text }, { role: 'user', content: textProtocolRepair(parsed.error, language) });
          round--;
          continue;
        }
        calls = parsed.kind === 'calls' ? parsed.calls.map((call, index) => ({ id: `text_${round}_${index}`, name: call.name, arguments: call.arguments })) : [];
        answer = parsed.text;
        if (calls.length === 0) emit({ type: 'text-delta', text: answer });
      }

      if (calls.length === 0 || last) {
        // A final reply that is empty (the model still asked for tools it can no longer have) says so.
        if (last && answer.trim() === '') {
          answer = text.incomplete;
          emit({ type: 'text-delta', text: answer });
        }
        commit({ role: 'assistant', content: answer });
        return finish(!last ? 'answer' : stopNote !== undefined ? 'loop-stopped' : 'round-limit', answer);
      }

      commit(mode === 'text' ? { role: 'assistant', content: reply.text } : { role: 'assistant', content: reply.text, toolCalls: calls });
      const records = await runToolCalls(calls, {
        registry,
        language,
        failures,
        emit,
        execute: {
          language,
          ...(dialectFor(mode) === undefined ? {} : { dialect: dialectFor(mode)! }),
          ...(signal === undefined ? {} : { signal }),
          ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
        },
      });
      toolCalls.push(...records);
      if (mode === 'text') {
        commit({ role: 'user', content: formatToolResultsForText(records.map((record) => toolOutput(record)), language) });
      } else {
        commit(...records.map((record): ChatMessage => ({ role: 'tool', toolCallId: record.callId, ...toolOutput(record) })));
      }
      if (signal?.aborted === true) return finish('aborted', text.cancelled, { code: 'aborted', message: text.cancelled });
      // Every call of the round was a repeat of a failing one: stop calling, let the model answer.
      if (records.every((record) => record.result.code === 'repeated')) stopNote = text.loopStopped;
    }
  } catch (error) {
    if (signal?.aborted === true || (error instanceof ModelError && error.code === 'aborted')) return finish('aborted', text.cancelled, { code: 'aborted', message: text.cancelled });
    const message = error instanceof Error ? error.message : String(error);
    return finish('error', text.modelFailed(message), { code: error instanceof ModelError ? error.code : 'internal', message });
  }
}

function toolOutput(record: ToolCallRecord): { name: string; content: string; isError?: boolean } {
  const { result } = record;
  return result.success ? { name: record.tool, content: result.data } : { name: record.tool, content: `Error: ${result.error ?? 'the tool failed'}`, isError: true };
}

function systemPrompt(base: string, toolSection: string | undefined, note: string | undefined): string {
  if (toolSection === undefined && note === undefined) return base;
  return [base, toolSection, note].filter((part) => part !== undefined && part !== '').join('\n\n');
}

/** Servers say this in a 400 when a model has no function calling (Ollama: "… does not support tools"). */
function rejectsNativeTools(error: unknown): boolean {
  return error instanceof ModelError && error.code === 'bad-request' && /does not support tools|tools? (?:is|are) not supported|function calling is not (?:supported|enabled)/i.test(error.message);
}

function addUsage(total: Usage, usage: Usage): void {
  if (usage.inputTokens !== undefined) total.inputTokens = (total.inputTokens ?? 0) + usage.inputTokens;
  if (usage.outputTokens !== undefined) total.outputTokens = (total.outputTokens ?? 0) + usage.outputTokens;
}

let todayCache = { day: Number.NaN, date: '' };

/** The UTC date (YYYY-MM-DD), formatted once per day: every request asks for it, and Date formatting is slow. */
function today(now?: Date): string {
  const time = now === undefined ? Date.now() : now.getTime();
  const day = Math.floor(time / 86_400_000);
  if (day !== todayCache.day) todayCache = { day, date: new Date(time).toISOString().slice(0, 10) };
  return todayCache.date;
}

