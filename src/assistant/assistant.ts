import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../models/chat-message.ts';
import type { ChatModel, ToolCallingMode } from '../models/chat-model.ts';
import type { SessionStore } from '../store/session-store.ts';
import type { ToolRegistry } from '../tools/tool-registry.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { detectLanguage } from './detect-language.ts';
import { eventStream } from './event-stream.ts';
import { runTurn } from './run-turn.ts';
import { closeOpenToolCalls, trimHistory } from './trim-history.ts';
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
  /** Token budget for the history sent with each turn (default 8,000). */
  historyTokens?: number;
  stream?: boolean;
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

  /** Runs one turn; the new messages and tool-call traces are saved as they happen. Never throws. */
  async turn(input: string, request: TurnRequest = {}): Promise<TurnResult> {
    const options = this.#options;
    const name = request.session ?? 'default';
    const store = options.store;
    const info = store?.session(name);
    const memory = this.#memory.get(name) ?? { messages: [] };
    if (store === undefined) this.#memory.set(name, memory);
    const history = store !== undefined && info !== undefined ? store.messages(info.id) : memory.messages;
    const language = this.#language(input, info?.language ?? memory.language);
    if (store !== undefined && info !== undefined && info.language !== language) store.setLanguage(info.id, language);
    memory.language = language;

    const turnId = randomUUID();
    const sessionId = info?.id ?? name;
    const registry = typeof options.registry === 'function' ? options.registry() : options.registry;
    return runTurn({
      model: options.model,
      registry,
      history: trimHistory(closeOpenToolCalls(history), options.historyTokens ?? 8_000),
      input,
      language,
      sessionId,
      ...(options.toolCalling === undefined ? {} : { toolCalling: options.toolCalling }),
      ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
      ...(options.stream === undefined ? {} : { stream: options.stream }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      onEvent: (event) => {
        if (event.type === 'messages') {
          if (store !== undefined && info !== undefined) store.appendMessages(info.id, event.messages, turnId);
          else memory.messages.push(...event.messages);
        } else if (event.type === 'tool-result' && store !== undefined) {
          const { call } = event;
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
          });
        }
        request.onEvent?.(event);
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
