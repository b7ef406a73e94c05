import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../models/chat-message.ts';
import type { ChatModel, ToolCallingMode } from '../models/chat-model.ts';
import type { SessionStore } from '../store/session-store.ts';
import { storeCall, StoreError } from '../store/store-error.ts';
import type { ToolRegistry } from '../tools/tool-registry.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { ASSISTANT_TEXT } from './assistant-text.ts';
import { detectLanguage } from './detect-language.ts';
import { eventStream } from './event-stream.ts';
import { runTurn } from './run-turn.ts';
import { closeOpenToolCalls, cutText, estimateTokens, trimHistory } from './trim-history.ts';
import type { TurnEvent, TurnResult } from './turn-events.ts';

export interface AssistantOptions {
  model: ChatModel;
  /** The tools; a function is asked at the start of every turn (a reload can swap the registry). */
  registry: ToolRegistry | (() => ToolRegistry);
  /** Where sessions live; without one, sessions last as long as this object. */
  store?: SessionStore;
  /** A fixed language, or 'auto' (default): the language of each user message. */
  language?: Language | 'auto';
  toolCalling?: ToolCallingMode;
  maxRounds?: number;
  /**
   * Token budget for the messages sent with each turn, the new one included (default 8,000): the
   * history is trimmed to what the new message leaves, and a message longer than the whole budget
   * is cut (with a note saying so) before it is stored.
   */
  historyTokens?: number;
  stream?: boolean;
  /** Each turn's deadline (default 300 s). */
  turnTimeoutMs?: number;
  /** How often a silent model is reported with `model-waiting` (default 5 s). */
  waitNoticeMs?: number;
}

export interface TurnRequest {
  /** Session name (default "default"). */
  session?: string;
  signal?: AbortSignal;
  onEvent?: (event: TurnEvent) => void;
}

/** The assistant: sessions, languages and persistence around `runTurn`. */
export class Assistant {
  readonly #options: AssistantOptions;
  readonly #memory = new Map<string, { messages: ChatMessage[]; language?: Language }>();

  constructor(options: AssistantOptions) {
    this.#options = options;
  }

  get model(): ChatModel {
    return this.#options.model;
  }

  /**
   * Runs one turn; the new messages and tool-call traces are saved as they happen. Never throws: a
   * store that fails ends the turn with `store-failed` (what was said is still in the result).
   */
  async turn(input: string, request: TurnRequest = {}): Promise<TurnResult> {
    const options = this.#options;
    const name = request.session ?? 'default';
    const store = options.store;
    const budget = options.historyTokens ?? 8_000;
    const memory = this.#memory.get(name) ?? { messages: [] };
    let prepared: { info: { id: string } | undefined; history: ChatMessage[]; registry: ToolRegistry; language: Language };
    try {
      const info = store === undefined ? undefined : storeCall('Opening the session', () => store.session(name));
      if (store === undefined) this.#memory.set(name, memory);
      const history = store !== undefined && info !== undefined ? storeCall('Reading the session', () => store.messages(info.id)) : memory.messages;
      const language = this.#language(input, info?.language ?? memory.language);
      if (store !== undefined && info !== undefined && info.language !== language) storeCall('Saving the session language', () => store.setLanguage(info.id, language));
      prepared = { info, history, language, registry: typeof options.registry === 'function' ? options.registry() : options.registry };
    } catch (error) {
      return failedTurn(input, this.#language(input, memory.language), error, request.onEvent);
    }
    const { info, history, registry, language } = prepared;
    // While the model thinks, a tool host gets ready for the first call this turn may make.
    registry.prewarm();
    memory.language = language;
    const text = ASSISTANT_TEXT[language];
    // The new message is cut before it is stored; the history gets what it leaves of the budget.
    const message = cutText(input, budget - 4, text.cutNote);

    const turnId = randomUUID();
    const sessionId = info?.id ?? name;
    const save = (event: TurnEvent) => {
      if (event.type === 'messages') {
        if (store !== undefined && info !== undefined) storeCall('Saving the conversation', () => store.appendMessages(info.id, event.messages, turnId));
        else memory.messages.push(...event.messages);
      } else if (event.type === 'tool-result' && store !== undefined) {
        const { call } = event;
        storeCall('Saving a tool call', () =>
          store.recordToolCall({
            sessionId,
            turnId,
            callId: call.callId,
            tool: call.tool,
            params: call.params,
            success: call.result.success,
            data: call.result.data,
            ...(call.result.error === undefined ? {} : { error: call.result.error }),
            ...(call.result.code === undefined ? {} : { code: call.result.code }),
            durationMs: call.durationMs,
            startedAt: call.startedAt,
          }),
        );
      }
    };
    return runTurn({
      model: options.model,
      registry,
      history: trimHistory(closeOpenToolCalls(history), Math.max(0, budget - 4 - estimateTokens(message)), text.cutNote),
      input: message,
      language,
      sessionId,
      ...(options.toolCalling === undefined ? {} : { toolCalling: options.toolCalling }),
      ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
      ...(options.stream === undefined ? {} : { stream: options.stream }),
      ...(options.turnTimeoutMs === undefined ? {} : { timeoutMs: options.turnTimeoutMs }),
      ...(options.waitNoticeMs === undefined ? {} : { waitNoticeMs: options.waitNoticeMs }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      onEvent: (event) => {
        // The caller hears of every event even when saving it failed; the store's failure is the one reported.
        let saveError: unknown;
        try {
          save(event);
        } catch (error) {
          saveError = error;
        }
        try {
          request.onEvent?.(event);
        } finally {
          if (saveError !== undefined) throw saveError;
        }
      },
    });
  }

  /** The same turn as an async iterable of events, ending with `done`. */
  stream(input: string, request: Omit<TurnRequest, 'onEvent'> = {}): AsyncIterable<TurnEvent> {
    return eventStream((push) => this.turn(input, { ...request, onEvent: push }));
  }

  /** The stored conversation of a session. */
  history(session = 'default'): ChatMessage[] {
    const store = this.#options.store;
    return store !== undefined ? store.messages(store.session(session).id) : (this.#memory.get(session)?.messages ?? []);
  }

  #language(input: string, previous: Language | undefined): Language {
    const fixed = this.#options.language ?? 'auto';
    if (fixed !== 'auto') return fixed;
    const detected = detectLanguage(input);
    // A message without letters ("ok", "👍", "3") keeps the session's language.
    return detected === 'en' && !/[a-z]/i.test(input) && previous !== undefined ? previous : detected;
  }
}

/** A turn that could not start (the store failed before the model was asked): a result like any other, and its `done` event. */
function failedTurn(input: string, language: Language, error: unknown, onEvent: ((event: TurnEvent) => void) | undefined): TurnResult {
  const text = ASSISTANT_TEXT[language];
  const detail = error instanceof Error ? error.message : String(error);
  const stored = error instanceof StoreError;
  const result: TurnResult = {
    text: stored ? text.storeFailed(detail) : text.internalError(detail),
    stopReason: 'error',
    messages: [{ role: 'user', content: input }],
    toolCalls: [],
    requests: 0,
    usage: {},
    error: { code: stored ? 'store-failed' : 'internal', message: detail },
  };
  try {
    onEvent?.({ type: 'done', result });
  } catch {
    // the result stands
  }
  return result;
}
