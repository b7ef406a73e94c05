import { randomUUID } from 'node:crypto';
import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import type { ChatModel, ModelRequest, RetryNotice, ToolCallingMode, ToolDefinition, Usage } from '../models/chat-model.ts';
import { ModelError } from '../models/model-error.ts';
import { StoreError } from '../store/store-error.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { Language } from '../core/language.ts';
import type { TurnApprovals } from './approval-gate.ts';
import { ASSISTANT_TEXT } from './assistant-text.ts';
import { followSignal } from './follow-signal.ts';
import { clientToolClashes, clientToolSet, type ClientTool, type ClientToolSet } from './client-tools.ts';
import { requestModel, type ModelReply } from './request-model.ts';
import { runToolCalls } from './run-tool-calls.ts';
import { textProtocolInstructions } from './text-protocol/instructions.ts';
import { parseTextToolCalls } from './text-protocol/parse-tool-calls.ts';
import { textProtocolRepair } from './text-protocol/repair-message.ts';
import { formatToolResultsForText } from './text-protocol/tool-results.ts';
import { OfferedTools, type TurnRouting } from './offered-tools.ts';
import type { StopReason, ToolCallRecord, TurnEvent, TurnResult } from './turn-events.ts';

export interface TurnOptions {
  model: ChatModel;
  registry: ToolRegistry;
  /** The conversation so far (already trimmed to the budget). */
  history: readonly ChatMessage[];
  /**
   * The user's message. Absent, the history ends with the results of the caller's own tool calls
   * (`clientTools`) and the turn continues from them.
   */
  input?: string;
  /** Said to the model after our system prompt (an OpenAI client's system messages). */
  system?: string;
  /**
   * Tools the caller runs itself, offered beside the registry's (native tool calling only; a name
   * the registry has is refused). A reply that calls one ends the turn with `tool-calls`: the
   * registry's calls of that reply run first, and the caller's are in `clientCalls`.
   */
  clientTools?: readonly ClientTool[];
  language: Language;
  /** Default: the model's own mode. */
  toolCalling?: ToolCallingMode;
  /** Rounds of tool calls before the model must answer with what it has (default 6). */
  maxRounds?: number;
  /** Tool calls run from one reply (default 32); the model is told of the ones left out. */
  maxCallsPerRound?: number;
  /** Stream model replies on the wire (default true). */
  stream?: boolean;
  signal?: AbortSignal;
  sessionId?: string;
  /** Told of every event as it happens. One that throws stops the turn (`listener-failed`, or `store-failed` for a StoreError). */
  onEvent?: (event: TurnEvent) => void;
  /** For the date in the system prompt. */
  now?: Date;
  /** The whole turn's deadline, model requests, retries and tool calls included (default 300 s). */
  timeoutMs?: number;
  /**
   * Without it every tool is offered. With it a catalog larger than the budget is routed: the
   * tools relevant to the conversation, chosen once for the turn, and find_tools (OfferedTools).
   */
  routing?: TurnRouting;
  /** How often a silent model is reported with `model-waiting` (default 5 s). */
  waitNoticeMs?: number;
  /**
   * Who approves the calls that need it (`approval-request` events; see TurnApprovals). Without it
   * no one can be asked, and those calls are refused (`approval-unavailable`).
   */
  approvals?: TurnApprovals;
  /** The turn's id, as its messages and traces are stored (a random one by default). */
  turnId?: string;
}

/**
 * A few minutes: room for a slow local model to write a long answer after a round or two of tools,
 * while a turn that is stuck (a server that trickles, a loop of slow tools) still ends on its own.
 */
export const DEFAULT_TURN_TIMEOUT_MS = 300_000;

/** More than a model asks for at once in earnest ("the weather in these 20 cities"). */
export const DEFAULT_MAX_CALLS_PER_ROUND = 32;

/** What ended a turn from outside its loop: the deadline, or a listener (the store) that threw. */
interface Halt {
  stopReason: StopReason;
  code: string;
  message: string;
  text: string;
}

/** Models found to reject native tools in this process; they use the text protocol from then on. */
const textOnlyModels = new Set<string>();

/**
 * One turn: the user's message → the model sees the tools → zero or more rounds of calls, run in
 * parallel, every result (failures included) returned to the model → the final reply. A turn
 * without tool calls costs one model request; with one round of calls, two. Never throws: model
 * failures, cancellation, the deadline, a failing listener or store end the turn with a stop
 * reason, keeping every completed message in the result.
 */
export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const { model, registry, language } = options;
  const text = ASSISTANT_TEXT[language];
  const listener = options.onEvent;
  // One controller stops everything the turn started (model request, retries, tool calls) when the
  // deadline passes, a listener fails or the caller's signal aborts.
  const stop = new AbortController();
  let halted: Halt | undefined;
  const halt = (cause: Halt) => {
    if (halted !== undefined) return;
    halted = cause;
    stop.abort(new DOMException(cause.message, cause.stopReason === 'timeout' ? 'TimeoutError' : 'AbortError'));
  };
  const emit = (event: TurnEvent) => {
    if (listener === undefined) return;
    try {
      listener(event);
    } catch (error) {
      // At `done` the result stands; before it, the turn stops.
      if (event.type !== 'done') halt(listenerHalt(error, text));
    }
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TURN_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  // setTimeout fires at once past its ceiling (about 24 days): longer means no deadline worth having.
  const timer = setTimeout(() => {
    const s = Math.round(timeoutMs / 100) / 10;
    halt({ stopReason: 'timeout', code: 'turn-timeout', message: `the turn took longer than ${s} s (assistant.turn_timeout_ms)`, text: text.turnTimedOut(s) });
  }, Math.min(timeoutMs, 2 ** 31 - 1));
  const unfollow = followSignal(options.signal, stop);
  const signal = stop.signal;
  let mode: ToolCallingMode = textOnlyModels.has(model.id) ? 'text' : (options.toolCalling ?? model.toolCalling);
  const maxRounds = options.maxRounds ?? 6;
  const maxCalls = options.maxCallsPerRound ?? DEFAULT_MAX_CALLS_PER_ROUND;
  // Native tools are shown in the provider's dialect; the text protocol shows plain JSON Schema.
  const dialectFor = (current: ToolCallingMode) => (current === 'native' ? model.dialect : undefined);
  // Set first thing in the try below: a registry that fails here must not make runTurn throw.
  let definitions: readonly ToolDefinition[] = [];
  let offered: OfferedTools | undefined;
  let offeredDefinitions: readonly ToolDefinition[] | undefined;
  let hasTools = false;
  let client: ClientToolSet | undefined;
  const clientTools = options.clientTools ?? [];
  const turnId = options.turnId ?? randomUUID();
  const unsettled = new Set<string>();

  const conversation: ChatMessage[] = [...options.history];
  const added: ChatMessage[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const usage: Usage = {};
  const failures = new Map<string, number>();
  let requests = 0;
  let repaired = false;
  let stopNote: string | undefined;
  /** Said to the model in the next request only (calls of its last reply that were left out). */
  let roundNote: string | undefined;

  const commit = (...messages: ChatMessage[]) => {
    conversation.push(...messages);
    added.push(...messages);
    emit({ type: 'messages', messages });
  };
  const finish = (stopReason: StopReason, reply: string, error?: TurnResult['error'], clientCalls?: ToolCallRequest[]): TurnResult => {
    // Stopped from outside (a store that failed while the answer was saved, say): that is the outcome.
    if (halted !== undefined) {
      stopReason = halted.stopReason;
      reply = halted.text;
      error = { code: halted.code, message: halted.message };
      clientCalls = undefined;
    }
    const result: TurnResult = {
      text: reply,
      stopReason,
      messages: added,
      toolCalls,
      requests,
      usage,
      ...(error === undefined ? {} : { error }),
      ...(clientCalls === undefined ? {} : { clientCalls }),
    };
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
      system: systemPrompt(text.systemPrompt(today(options.now)), options.system, textMode && withTools && hasTools ? textProtocolInstructions(definitions, language) : undefined, note),
      messages: conversation,
      stream: options.stream ?? true,
      ...(!textMode && withTools && hasTools ? { tools: definitions } : {}),
      signal,
      deadline,
      onRetry,
    };
    const reply = await requestModel(model, request, emit, !textMode || !withTools || !hasTools, countRequest, options.waitNoticeMs);
    if (reply.usage !== undefined) addUsage(usage, reply.usage);
    return reply;
  };

  const cancelled = () => finish('aborted', text.cancelled, { code: 'aborted', message: text.cancelled });
  const clientToolsRefused = () => finish('error', text.clientToolsNeedNative, { code: 'client-tools-unsupported', message: `${model.id} is used without native tool calling, which the client's tools need` });
  try {
    offered = await OfferedTools.choose(registry, language, options.routing, conversationQuery(options), signal);
    definitions = offeredDefinitions = offered.definitions(dialectFor(mode));
    if (clientTools.length > 0) {
      // Ours are the registry's tools and what the turn offers besides (find_tools, when it routes).
      const offeredNames = new Set(definitions.map((definition) => definition.name));
      const clashes = clientToolClashes(clientTools, (name) => registry.get(name) !== undefined || offeredNames.has(name));
      if (clashes.length > 0) return finish('error', text.clientToolClash(clashes), { code: 'tool-name-clash', message: clashMessage(clashes) });
      if (mode === 'text') return clientToolsRefused();
      try {
        client = clientToolSet(clientTools, dialectFor(mode));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return finish('error', text.invalidClientTool(message), { code: 'invalid-client-tool', message });
      }
      definitions = [...definitions, ...client.definitions];
    }
    hasTools = definitions.length > 0;
    if (options.input !== undefined) commit({ role: 'user', content: options.input });
    for (let round = 0; ; round++) {
      // The same tools every round, unless find_tools found more (or the mode changed).
      const current = offered.definitions(dialectFor(mode));
      if (current !== offeredDefinitions) {
        offeredDefinitions = current;
        definitions = client === undefined ? current : [...current, ...client.definitions];
        hasTools = definitions.length > 0;
      }
      const last = round >= maxRounds || stopNote !== undefined;
      let reply: ModelReply;
      try {
        reply = await ask(!last, last ? (stopNote ?? text.roundLimit(maxRounds)) : roundNote);
      } catch (error) {
        if (mode === 'native' && rejectsNativeTools(error)) {
          textOnlyModels.add(model.id);
          if (client !== undefined) return clientToolsRefused();
          mode = 'text';
          round--;
          continue;
        }
        throw error;
      }

      roundNote = undefined;
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

      // A reply asking for hundreds of calls would run them all at once and send every result back.
      if (calls.length > maxCalls && !last) {
        roundNote = text.tooManyCalls(maxCalls, calls.length - maxCalls);
        calls = calls.slice(0, maxCalls);
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

      // The caller's calls get ids of their own (unique across conversations) and its schema's arguments.
      const forClient = client === undefined ? [] : calls.filter((call) => client!.has(call.name));
      if (forClient.length > 0) {
        const given = new Map(forClient.map((call) => [call, client!.callForClient(call)]));
        calls = calls.map((call) => given.get(call) ?? call);
      }
      commit(mode === 'text' ? { role: 'assistant', content: reply.text } : { role: 'assistant', content: reply.text, toolCalls: calls });
      const ours = forClient.length === 0 ? calls : calls.filter((call) => !client!.has(call.name));
      const records = await runToolCalls(ours, {
        registry,
        language,
        failures,
        emit,
        offered,
        turnId,
        ...(options.approvals === undefined ? {} : { approvals: { ...options.approvals, unsettled } }),
        execute: {
          language,
          ...(dialectFor(mode) === undefined ? {} : { dialect: dialectFor(mode)! }),
          signal,
          ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
        },
      });
      toolCalls.push(...records);
      if (mode === 'text') {
        commit({ role: 'user', content: formatToolResultsForText(records.map((record) => toolOutput(record)), language) });
      } else {
        // A call still waiting for approval when the turn stopped keeps no result here: its approval
        // can still be answered, and the next turn reads what then happened from the call's trace.
        const settled = unsettled.size === 0 ? records : records.filter((record) => !unsettled.has(record.callId));
        commit(...settled.map((record): ChatMessage => ({ role: 'tool', toolCallId: record.callId, ...toolOutput(record) })));
      }
      if (signal.aborted) return cancelled(); // or halted: finish says which
      if (forClient.length > 0) return finish('tool-calls', answer, undefined, calls.filter((call) => client!.has(call.name)));
      // Every call of the round was a repeat of a failing one: stop calling, let the model answer.
      if (records.every((record) => record.result.code === 'repeated')) stopNote = text.loopStopped;
    }
  } catch (error) {
    if (signal.aborted || (error instanceof ModelError && error.code === 'aborted')) return cancelled();
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof ModelError)) return finish('error', text.internalError(message), { code: 'internal', message });
    const reply = error.limit === undefined ? text.modelFailed(message) : text.modelLimit(error.code, error.limit.setting, error.limit.value);
    return finish('error', reply, { code: error.code, message });
  } finally {
    clearTimeout(timer);
    unfollow();
  }
}

/** What the tools are chosen for: the user's latest message, and the ones before it. */
function conversationQuery(options: TurnOptions): { latest: string; earlier: string[] } {
  const users = options.history.filter((message) => message.role === 'user').map((message) => message.content);
  if (options.input !== undefined) return { latest: options.input, earlier: users };
  return { latest: users.at(-1) ?? '', earlier: users.slice(0, -1) };
}

function listenerHalt(error: unknown, text: (typeof ASSISTANT_TEXT)[Language]): Halt {
  const detail = error instanceof Error ? error.message : String(error);
  return error instanceof StoreError
    ? { stopReason: 'error', code: 'store-failed', message: detail, text: text.storeFailed(detail) }
    : { stopReason: 'error', code: 'listener-failed', message: `an onEvent listener threw: ${detail}`, text: text.listenerFailed(detail) };
}

function toolOutput(record: ToolCallRecord): { name: string; content: string; isError?: boolean } {
  return { name: record.tool, ...resultContent(record.result) };
}

/** A call's result as the model reads it in the conversation: its data, or its error marked as one. */
export function resultContent(result: { success: boolean; data: string; error?: string | undefined }): { content: string; isError?: boolean } {
  return result.success ? { content: result.data } : { content: `Error: ${result.error ?? 'the tool failed'}`, isError: true };
}

function systemPrompt(base: string, caller: string | undefined, toolSection: string | undefined, note: string | undefined): string {
  if (caller === undefined && toolSection === undefined && note === undefined) return base;
  return [base, caller, toolSection, note].filter((part) => part !== undefined && part !== '').join('\n\n');
}

function clashMessage(names: readonly string[]): string {
  const list = names.map((name) => `"${name}"`).join(', ');
  return `the client's tool${names.length === 1 ? '' : 's'} ${list} ${names.length === 1 ? 'has the name' : 'have the names'} of Riverse's own; rename ${names.length === 1 ? 'it' : 'them'} in the request, or switch Riverse's off (tools.<name>.enabled: false in riverse.yaml)`;
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

