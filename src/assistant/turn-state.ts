import { randomUUID } from 'node:crypto';
import type { ChatMessage, ToolCallRequest } from '../models/chat-message.ts';
import type { ChatModel, ToolCallingMode, Usage } from '../models/chat-model.ts';
import type { Dialect } from '../schema/dialect.ts';
import { StoreError } from '../store/store-error.ts';
import { ASSISTANT_TEXT, type AssistantText } from './assistant-text.ts';
import { followSignal } from './follow-signal.ts';
import { TextOnlyModels } from './text-only-models.ts';
import type { TurnErrorCode } from './turn-error-codes.ts';
import type { StopReason, ToolCallRecord, TurnEvent, TurnResult } from './turn-events.ts';
import {
  DEFAULT_MAX_CALLS_PER_ROUND,
  DEFAULT_TURN_TIMEOUT_MS,
  defaultParallelCalls,
  type TurnOptions,
} from './turn-options.ts';

/** What ended a turn from outside its loop: the deadline, or a listener (the store) that threw. */
export interface Halt {
  stopReason: StopReason;
  code: TurnErrorCode;
  message: string;
  text: string;
}

/**
 * What one turn knows and changes as it goes, shared by its steps (prepare-tools, ask-model,
 * read-tool-calls, run-round, finish-turn): the conversation and what the turn added to it, the
 * calls, the counts, the notes for the model; and the one controller that stops everything the turn
 * started (model request, retries, tool calls) when the deadline passes, a listener fails or the
 * caller's signal aborts.
 */
export class TurnState {
  readonly options: TurnOptions;
  readonly model: ChatModel;
  readonly text: AssistantText;
  readonly turnId: string;
  readonly textOnly: TextOnlyModels;
  readonly maxRounds: number;
  readonly maxCalls: number;
  /** Calls of one reply running at once. */
  readonly parallelCalls: number;
  /** When the turn's time is up (ms since the epoch), for the model adapter's retries. */
  readonly deadline: number;
  readonly signal: AbortSignal;
  /** The conversation as the model sees it: the history, then what this turn added. */
  readonly conversation: ChatMessage[];
  /** Every message this turn added, the user's first. */
  readonly added: ChatMessage[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  readonly usage: Usage = {};
  /** Failures per exact call (tool + arguments) so far (run-tool-calls.ts). */
  readonly failures = new Map<string, number>();
  /** Calls still waiting for approval when the turn stopped (approval-gate.ts). */
  readonly unsettled = new Set<string>();
  mode: ToolCallingMode;
  /** Model requests sent, retries included. */
  requests = 0;
  /** The text protocol's one repair round has been used. */
  repaired = false;
  /** The one more try at an answer in the format asked for has been used (structured-output.ts). */
  reasked = false;
  /** Set when the model must answer now (every call of a round was a repeat of a failing one). */
  stopNote: string | undefined;
  /** Said to the model in the next request only (calls of its last reply that were left out). */
  roundNote: string | undefined;
  /** Set once, by the deadline or a failing listener: the turn's outcome, whatever it was doing. */
  halted: Halt | undefined;
  readonly #stop = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #unfollow: () => void;

  constructor(options: TurnOptions) {
    this.options = options;
    this.model = options.model;
    this.text = ASSISTANT_TEXT[options.language];
    this.turnId = options.turnId ?? randomUUID();
    this.textOnly = options.textOnly ?? TextOnlyModels.of(options.model);
    // A setting is kept; the memory only stands in for the model's own mode.
    this.mode = options.toolCalling ?? (this.textOnly.has(this.model) ? 'text' : this.model.toolCalling);
    this.maxRounds = options.maxRounds ?? 6;
    this.maxCalls = options.maxCallsPerRound ?? DEFAULT_MAX_CALLS_PER_ROUND;
    this.parallelCalls = options.maxParallelCalls ?? defaultParallelCalls();
    this.conversation = [...options.history];
    const timeoutMs = options.timeoutMs ?? DEFAULT_TURN_TIMEOUT_MS;
    this.deadline = Date.now() + timeoutMs;
    // setTimeout fires at once past its ceiling (about 24 days): longer means no deadline worth having.
    this.#timer = setTimeout(
      () => {
        const s = Math.round(timeoutMs / 100) / 10;
        const message = `the turn took longer than ${s} s (assistant.turn_timeout_ms)`;
        this.halt({ stopReason: 'timeout', code: 'turn-timeout', message, text: this.text.turnTimedOut(s) });
      },
      Math.min(timeoutMs, 2 ** 31 - 1),
    );
    this.#unfollow = followSignal(options.signal, this.#stop);
    this.signal = this.#stop.signal;
  }

  /** Tells the listener of `event`. One that throws before `done` stops the turn; at `done` the result stands. */
  readonly emit = (event: TurnEvent): void => {
    const listener = this.options.onEvent;
    if (listener === undefined) return;
    try {
      const returned = listener(event);
      if (returned instanceof Promise) this.#follow(returned, event);
    } catch (error) {
      if (event.type !== 'done') this.halt(listenerHalt(error, this.text));
    }
  };

  /** The listener's writes still under way (the promises it returned): `done` waits for them. */
  readonly #writes = new Set<Promise<void>>();

  /** A write that fails stops the turn as a listener's throw does; the turn goes on while it runs. */
  #follow(write: Promise<unknown>, event: TurnEvent): void {
    const followed: Promise<void> = write
      .then(
        () => {},
        (error: unknown) => {
          if (event.type !== 'done') this.halt(listenerHalt(error, this.text));
        },
      )
      .finally(() => this.#writes.delete(followed));
    this.#writes.add(followed);
  }

  /** Waits until the listener's writes are done (a failed one has halted the turn by then). */
  async settled(): Promise<void> {
    while (this.#writes.size > 0) await Promise.all(this.#writes);
  }

  /** How the turn ends, set by finishTurn: its result is made from it once the writes are settled. */
  ending: Ending | undefined;

  /** Stops the turn from outside its loop; the first cause is the one reported. */
  halt(cause: Halt): void {
    if (this.halted !== undefined) return;
    this.halted = cause;
    this.#stop.abort(new DOMException(cause.message, cause.stopReason === 'timeout' ? 'TimeoutError' : 'AbortError'));
  }

  /** Adds messages to the conversation, and hands them out (`messages`) to be stored. */
  commit(...messages: ChatMessage[]): void {
    this.conversation.push(...messages);
    this.added.push(...messages);
    this.emit({ type: 'messages', messages });
  }

  /** Native tools are shown in the provider's dialect; the text protocol shows plain JSON Schema. */
  dialect(): Dialect | undefined {
    return this.mode === 'native' ? this.model.dialect : undefined;
  }

  /** The turn is over: its deadline and its link to the caller's signal go. */
  close(): void {
    clearTimeout(this.#timer);
    this.#unfollow();
  }
}

/** What finishTurn was given: the outcome of the turn's steps, before a late halt. */
export interface Ending {
  stopReason: StopReason;
  reply: string;
  error?: TurnResult['error'];
  clientCalls?: ToolCallRequest[];
}

function listenerHalt(error: unknown, text: AssistantText): Halt {
  const detail = error instanceof Error ? error.message : String(error);
  return error instanceof StoreError
    ? { stopReason: 'error', code: 'store-failed', message: detail, text: text.storeFailed(detail) }
    : {
        stopReason: 'error',
        code: 'listener-failed',
        message: `an onEvent listener threw: ${detail}`,
        text: text.listenerFailed(detail),
      };
}
