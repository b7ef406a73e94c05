import { availableParallelism } from 'node:os';
import type { TurnTracer } from './turn-tracer.ts';
import type { TurnTasks } from './task-calls.ts';
import type { ChatMessage } from '../models/chat-message.ts';
import type { ChatModel, ResponseFormat, SamplingSettings, ToolCallingMode, ToolChoice } from '../models/chat-model.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { MessageImage } from '../models/chat-message.ts';
import type { Language } from '../core/language.ts';
import type { TurnApprovals } from './approval-gate.ts';
import type { ClientTool } from './client-tools.ts';
import type { TurnRouting } from './offered-tools.ts';
import type { TextOnlyModels } from './text-only-models.ts';
import type { TurnEvent } from './turn-events.ts';

/** One turn's inputs (runTurn). */
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
  /** Pictures sent with `input` (a `/v1` user's attached image). */
  inputImages?: MessageImage[];
  /** Said to the model after our system prompt (an OpenAI client's system messages). */
  system?: string;
  /**
   * Tools the caller runs itself, offered beside the registry's (native tool calling only; a name
   * the registry has is refused). A reply that calls one ends the turn with `tool-calls`: the
   * registry's calls of that reply run first, and the caller's are in `clientCalls`.
   */
  clientTools?: readonly ClientTool[];
  language: Language;
  /**
   * Default: the model's own mode, or the text protocol once the model has refused native tools
   * (`textOnly`). Set, it is kept: a refusal of native tools then ends the turn (`bad-request`).
   */
  toolCalling?: ToolCallingMode;
  /**
   * The models found to refuse native tools, by whoever owns this turn (an Assistant keeps its
   * own). Default: the memory of the model object itself.
   */
  textOnly?: TextOnlyModels;
  /** Rounds of tool calls before the model must answer with what it has (default 6). */
  maxRounds?: number;
  /** Tool calls run from one reply (default 256); each one past it gets a result saying it was not run. */
  maxCallsPerRound?: number;
  /** Calls of one reply running at once (default: defaultParallelCalls(); `assistant.max_parallel_calls`). */
  maxParallelCalls?: number;
  /** Stream model replies on the wire (default true). */
  stream?: boolean;
  signal?: AbortSignal;
  sessionId?: string;
  /**
   * Told of every event as it happens. One that throws stops the turn (`listener-failed`, or
   * `store-failed` for a StoreError); a promise it returns (a store's write) is waited for before
   * `done`, and one that rejects stops the turn the same way.
   */
  onEvent?: (event: TurnEvent) => unknown;
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
  /** Where calls that outlive the turn go: `long_running` tools' calls, and calls still running at the deadline (032). */
  tasks?: TurnTasks;
  /** The turn's id, as its messages and traces are stored (a random one by default). */
  turnId?: string;
  /** Told of the model requests and the tools offered, for the turn's trace (the rest it reads from the events). */
  tracer?: TurnTracer;
  /** Sent with every model request of the turn (a /v1 client's temperature, max_tokens, …). */
  sampling?: SamplingSettings;
  /**
   * The answer must be JSON of this form. Our tools still run first; the answer is held back until
   * it is checked, asked again once when it does not match, and the turn fails
   * (`invalid-structured-output`) when it still does not (structured-output.ts).
   */
  responseFormat?: ResponseFormat;
  /**
   * `auto` (default); `none`: no tools are offered; `required`: the first request must call a tool,
   * and with the caller's tools every request must until one of theirs is called; `{ name }`: the
   * first request must call that tool (ours or the caller's). See docs/server-api.md.
   */
  toolChoice?: ToolChoice;
}

/**
 * A few minutes: room for a slow local model to write a long answer after a round or two of tools,
 * while a turn that is stuck (a server that trickles, a loop of slow tools) still ends on its own.
 */
export const DEFAULT_TURN_TIMEOUT_MS = 300_000;

/**
 * Twice what OpenAI allows in one reply (128): every call a real model asks for runs, while a reply
 * of thousands of tiny calls cannot fan out without end.
 */
export const DEFAULT_MAX_CALLS_PER_ROUND = 256;

/**
 * Calls mostly wait (on the network, on a model, on a person), so a few per core; bounded, since
 * each holds its arguments and result and may start a tool host.
 */
export function defaultParallelCalls(): number {
  // Asked once: availableParallelism() is a system call, and this is read at every turn's start.
  parallelCalls ??= Math.min(64, Math.max(8, 4 * availableParallelism()));
  return parallelCalls;
}
let parallelCalls: number | undefined;
