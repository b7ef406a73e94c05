import { randomUUID } from 'node:crypto';
import type { RoutingSettings } from '../routing/routing-settings.ts';
import type { ToolRouter } from '../routing/tool-router.ts';
import type { ChatMessage } from '../models/chat-message.ts';
import type { ChatModel, ResponseFormat, SamplingSettings, ToolCallingMode, ToolChoice } from '../models/chat-model.ts';
import type { Store } from '../store/store.ts';
import { storeCall, StoreError } from '../store/store-error.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { Language } from '../core/language.ts';
import type { TraceContext } from '../core/trace-context.ts';
import type { TurnExport } from '../telemetry/turn-export.ts';
import type { TurnApprovals } from './approval-gate.ts';
import { Approvals } from './approvals.ts';
import { ASSISTANT_TEXT } from './assistant-text.ts';
import type { CallMemory } from './call-memory.ts';
import type { ClientTool } from './client-tools.ts';
import { detectLanguage } from './detect-language.ts';
import { eventStream } from './event-stream.ts';
import { runTurn, type TurnOptions } from './run-turn.ts';
import { TextOnlyModels } from './text-only-models.ts';
import { resultContent } from './tool-output.ts';
import { closeOpenToolCalls, cutText, estimateTokens, trimHistory } from './trim-history.ts';
import type { ToolCallRecord, TurnEvent, TurnResult } from './turn-events.ts';
import { TurnTracer } from './turn-tracer.ts';
import type { LocalTaskRunner } from '../tasks/task-runner.ts';
import type { TaskRecord } from '../tasks/task-types.ts';
import { ENDED_STATUSES } from '../store/task-store.ts';
import { deliverTasks, type TaskDelivery } from './task-delivery.ts';

export interface AssistantOptions {
  model: ChatModel;
  /** The tools; a function is asked at the start of every turn (a reload can swap the registry). */
  registry: ToolRegistry | (() => ToolRegistry);
  /** Where sessions live; without one, sessions last as long as this object. */
  store?: Store;
  /** A fixed language, or 'auto' (default): the language of each user message. */
  language?: Language | 'auto';
  /**
   * Default: the model's own mode, or the text protocol once the model has refused native tools in
   * one of this assistant's turns. Set, it is kept (a refusal is then the turn's error).
   */
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
  /** The budget of tool definitions per request (riverse.yaml `routing:`); a larger catalog is routed. */
  routing?: RoutingSettings | null;
  /** The index routed turns use; give one to keep it up to date as tools change (ToolRouter.sync), or a function that makes it when a turn first routes. */
  router?: ToolRouter | (() => Promise<ToolRouter>);
  /**
   * Where calls wait for a person's approval (and tools' questions), shared by every channel that
   * answers; by default one kept in `store` (or in memory), with `approvalTimeoutMs`.
   */
  approvals?: Approvals;
  /** How long a call waits for approval before it counts as a denial (default 120 s; `assistant.approval_timeout_ms`). */
  approvalTimeoutMs?: number;
  /**
   * Runs the calls that outlive their turn (`long_running` tools, calls past the deadline: 032) and
   * delivers their results into their sessions. Without it, every call is its turn's.
   */
  tasks?: LocalTaskRunner;
  /** Told when a task's result was added to its session (the service tells the dashboard). */
  onTaskDelivered?: (delivery: TaskDelivery) => void;
  /**
   * Told of what a task's call says (a question of `context.ask`, its end, a log line): its turn's
   * listener may be gone (a closed browser), and is once the turn is over (the service tells the dashboard).
   */
  onTaskEvent?: (taskEvent: { taskId: string; sessionId: string; event: TurnEvent }) => void;
  /** Calls of one reply running at once (TurnOptions.maxParallelCalls; `assistant.max_parallel_calls`). */
  maxParallelCalls?: number;
  /** Where each turn's trace is exported (OpenTelemetry, when `telemetry:` or OTEL_* turn it on: 034). */
  telemetry?: TurnExport;
}

export interface TurnRequest {
  /** Session name (default "default"). */
  session?: string;
  signal?: AbortSignal;
  onEvent?: (event: TurnEvent) => void;
  /** `ask` (default): calls that need approval wait for an answer through `assistant.approvals`; `deny`: they are refused; `allow`: they run. */
  approvals?: TurnApprovals['mode'];
  /** The caller's trace (a `traceparent` that came with the request): the turn's trace continues it. */
  traceContext?: TraceContext;
}

/** A turn whose conversation the caller keeps (an OpenAI client): nothing of it is stored but the traces of its tool calls. */
export interface CompletionRequest {
  /**
   * The conversation, ending with the user's message or with the results of the caller's tool
   * calls (`clientTools`) that the turn before asked for. Every tool call has its result.
   */
  messages: readonly ChatMessage[];
  /** The caller's system messages, said to the model after ours. */
  system?: string;
  /** Tools the caller runs itself, offered beside ours (see TurnOptions.clientTools). */
  clientTools?: readonly ClientTool[];
  /**
   * Where the calls we ran before a call for the caller are kept, to be put back into the
   * conversation when the caller sends that reply again. Without one they are not.
   */
  memory?: CallMemory;
  /** The session the tool-call traces are recorded under (default "openai"). */
  session?: string;
  /**
   * Stream the model's replies on the wire (default: the assistant's `stream`). A caller that
   * waits for the whole answer spares the work of streaming it.
   */
  stream?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: TurnEvent) => void;
  /** Calls that need approval: `deny` (default: the caller cannot show a person the call), `allow`, or `ask` (an answer through `assistant.approvals`, from the dashboard or the API). */
  approvals?: TurnApprovals['mode'];
  /** The caller's sampling settings, sent with each of the turn's model requests (already bounded by the service). */
  sampling?: SamplingSettings;
  /** The answer must be JSON of this form: checked, asked again once, else the turn fails (`invalid-structured-output`). */
  responseFormat?: ResponseFormat;
  /** Which tools the model may or must call (TurnOptions.toolChoice). */
  toolChoice?: ToolChoice;
  /** The caller's trace (a `traceparent` that came with the request): the turn's trace continues it. */
  traceContext?: TraceContext;
}

/** The assistant: sessions, languages and persistence around `runTurn`. */
export class Assistant {
  readonly #options: AssistantOptions;
  readonly #memory = new Map<string, { messages: ChatMessage[]; language?: Language }>();
  readonly #router: ToolRouter | (() => Promise<ToolRouter>);
  /** The models this assistant found to refuse native tools (another assistant finds out for itself). */
  readonly #textOnly = new TextOnlyModels();
  /** Where calls wait for a person's answer; the channels (chat, dashboard, API) answer here. */
  readonly approvals: Approvals;
  /** Turns running per session: a task that ends meanwhile is delivered when they end, not between a call and its result. */
  readonly #busy = new Map<string, number>();
  /** Each session's last language, for a result delivered between turns. */
  readonly #sessionLanguages = new Map<string, Language>();
  /** The turn each running task was a call of, to add its end to that turn's trace. */
  readonly #taskTurns = new Map<string, string>();

  /** Stops listening for tasks' ends (a service that changes its model makes a new assistant). */
  readonly #unsubscribe: () => void;

  constructor(options: AssistantOptions) {
    this.#options = options;
    // The router's module (its tokenizer builds tables, ~50–90 ms) is imported when a turn first routes.
    let made: Promise<ToolRouter> | undefined;
    this.#router =
      options.router ??
      (() => (made ??= import('../routing/tool-router.ts').then(({ ToolRouter }) => new ToolRouter())));
    const registry = options.registry;
    this.approvals =
      options.approvals ??
      new Approvals({
        ...(options.store === undefined ? {} : { store: options.store }),
        registry: typeof registry === 'function' ? registry : () => registry,
        ...(options.approvalTimeoutMs === undefined ? {} : { timeoutMs: options.approvalTimeoutMs }),
      });
    this.#unsubscribe =
      options.tasks?.onChange((task) => {
        if (!ENDED_STATUSES.includes(task.status)) return;
        void this.#traceTaskEnd(task).catch(() => {});
        if (task.sessionId !== undefined && task.deliveredAt === undefined && !this.#busy.has(task.sessionId))
          void this.#deliver(task.sessionId);
      }) ?? (() => {});
  }

  get model(): ChatModel {
    return this.#options.model;
  }

  /** Hands over to another assistant: this one no longer delivers tasks' results as they end (the next turn still does). */
  close(): void {
    this.#unsubscribe();
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
    let prepared: {
      info: { id: string } | undefined;
      history: ChatMessage[];
      late: Map<string, { content: string; isError?: boolean }> | undefined;
      registry: ToolRegistry;
      language: Language;
    };
    try {
      const info = store === undefined ? undefined : await storeCall('Opening the session', () => store.session(name));
      if (store === undefined) this.#memory.set(name, memory);
      // The results of tasks that ended since the last turn join the conversation before this message.
      if (options.tasks !== undefined) {
        this.#sessionLanguages.set(info?.id ?? name, this.#language(input, info?.language ?? memory.language));
        await this.#deliver(info?.id ?? name);
      }
      const history =
        store !== undefined && info !== undefined
          ? await storeCall('Reading the session', () => store.messages(info.id))
          : memory.messages;
      const language = this.#language(input, info?.language ?? memory.language);
      if (store !== undefined && info !== undefined && info.language !== language)
        await storeCall('Saving the session language', () => store.setLanguage(info.id, language));
      prepared = {
        info,
        history,
        late: store === undefined || info === undefined ? undefined : await lateResults(store, info.id, history),
        language,
        registry: typeof options.registry === 'function' ? options.registry() : options.registry,
      };
    } catch (error) {
      return failedTurn(input, this.#language(input, memory.language), error, request.onEvent);
    }
    const { info, history, late, registry, language } = prepared;
    // While the model thinks, a tool host gets ready for the first call this turn may make.
    registry.prewarm();
    memory.language = language;
    const text = ASSISTANT_TEXT[language];
    // The new message is cut before it is stored; the history gets what it leaves of the budget.
    const message = cutText(input, budget - 4, text.cutNote);

    const turnId = randomUUID();
    const sessionId = info?.id ?? name;
    const tracer = turnTracer(options, turnId, sessionId, registry, request.traceContext);
    // The turn's writes one after another (messages in order); one that fails ends the turn (`store-failed`), and the rest are not made.
    let writes: Promise<void> = Promise.resolve();
    const save = (event: TurnEvent): Promise<void> | undefined => {
      tracer?.(event);
      if (event.type === 'messages') {
        if (store === undefined || info === undefined) memory.messages.push(...event.messages);
        else {
          const { messages } = event;
          writes = writes.then(() =>
            storeCall('Saving the conversation', () => store.appendMessages(info.id, messages, turnId)),
          );
          return writes;
        }
      } else if (event.type === 'tool-result' && store !== undefined) {
        recordTrace(store, sessionId, turnId, event.call);
        if (event.call.taskId !== undefined) this.#taskTurns.set(event.call.taskId, turnId);
      }
      return undefined;
    };
    const tasks = options.tasks;
    let over = false; // the turn has ended: what its tasks' calls say goes to onTaskEvent
    if (tasks !== undefined) this.#busy.set(sessionId, (this.#busy.get(sessionId) ?? 0) + 1);
    const result = await runTurn({
      ...this.#turnSettings(request.signal),
      ...(tasks === undefined ? {} : { tasks: { runner: tasks } }),
      registry,
      history: trimHistory(
        closeOpenToolCalls(history, late),
        Math.max(0, budget - 4 - estimateTokens(message)),
        text.cutNote,
      ),
      input: message,
      language,
      sessionId,
      turnId,
      ...(tracer === undefined ? {} : { tracer: tracer.tracer }),
      approvals: { desk: this.approvals, mode: request.approvals ?? 'ask' },
      onEvent:
        tasks === undefined
          ? savingListener(save, request.onEvent)
          : afterTheTurn(savingListener(save, request.onEvent), () => over, this.#options.onTaskEvent, sessionId),
    }).finally(() => {
      over = true;
    });
    if (tasks === undefined) return result;
    await this.#traceEndedTasks(tasks, turnId);
    const left = (this.#busy.get(sessionId) ?? 1) - 1;
    if (left > 0) this.#busy.set(sessionId, left);
    else {
      this.#busy.delete(sessionId);
      this.#sessionLanguages.set(sessionId, language);
      void this.#deliver(sessionId); // what ended while the turn ran
    }
    return result;
  }

  /** The ends of this turn's tasks that ended within it, on its trace. Never throws. */
  async #traceEndedTasks(tasks: LocalTaskRunner, turnId: string): Promise<void> {
    for (const [taskId, turn] of [...this.#taskTurns]) {
      if (turn !== turnId) continue;
      try {
        const task = await tasks.get(taskId);
        if (task !== undefined && ENDED_STATUSES.includes(task.status)) await this.#traceTaskEnd(task);
      } catch {}
    }
  }

  /** A task's end, on the tool-call span of the turn it came from: its status, code and when. */
  async #traceTaskEnd(task: TaskRecord): Promise<void> {
    const turnId = this.#taskTurns.get(task.id);
    const store = this.#options.store;
    if (turnId === undefined || store === undefined) return;
    // Before its turn's trace is written (a task that ended within its turn), this waits for the turn's end.
    const written = await store.turnTraces.annotateCall(turnId, task.callId, {
      'riverse.task.status': task.status,
      'riverse.task.ended_ms': task.updatedAt,
      ...(task.errorCode === undefined ? {} : { 'riverse.task.error_code': task.errorCode }),
      ...(task.result === undefined ? {} : { 'riverse.task.outcome': task.result.success ? 'success' : 'failure' }),
    });
    if (written) this.#taskTurns.delete(task.id);
  }

  /** Adds the results of the session's ended, undelivered tasks to it (never throws: a failed write waits for the next turn). */
  async #deliver(sessionId: string): Promise<void> {
    const tasks = this.#options.tasks;
    if (tasks === undefined) return;
    const store = this.#options.store;
    const language =
      this.#sessionLanguages.get(sessionId) ??
      (this.#options.language === 'auto' ? undefined : this.#options.language) ??
      'en';
    try {
      const delivered = await deliverTasks(tasks, sessionId, language, async (messages) => {
        if (store !== undefined) await store.appendMessages(sessionId, messages);
        else {
          const memory = this.#memory.get(sessionId) ?? { messages: [] };
          this.#memory.set(sessionId, memory);
          memory.messages.push(...messages);
        }
      });
      for (const delivery of delivered) this.#options.onTaskDelivered?.(delivery);
    } catch {}
  }

  /**
   * Runs one turn on a conversation the caller keeps (see CompletionRequest): the calls we ran
   * before a call for the caller are put back from `memory`, the conversation is trimmed to the
   * token budget like a session's, and only the tool calls are stored, as traces. Never throws.
   */
  async complete(request: CompletionRequest): Promise<TurnResult> {
    const options = this.#options;
    const store = options.store;
    const budget = options.historyTokens ?? 8_000;
    const conversation = request.memory?.splice(request.messages) ?? [...request.messages];
    const last = conversation.at(-1);
    const lastUser = conversation.findLast((message) => message.role === 'user');
    const language = this.#language(lastUser?.content ?? '', undefined);
    let registry: ToolRegistry;
    let sessionId: string;
    try {
      sessionId =
        store === undefined
          ? (request.session ?? 'openai')
          : await storeCall('Opening the session', () => store.sessionId(request.session ?? 'openai'));
      registry = typeof options.registry === 'function' ? options.registry() : options.registry;
    } catch (error) {
      return failedTurn(last?.role === 'user' ? last.content : '', language, error, request.onEvent);
    }
    registry.prewarm();
    const text = ASSISTANT_TEXT[language];
    // Ending with the user's message: a new turn, as in `turn`. Ending with results: the turn goes on from them.
    const input = last?.role === 'user' ? cutText(last.content, budget - 4, text.cutNote) : undefined;
    const history = input === undefined ? conversation : conversation.slice(0, -1);
    const turnId = randomUUID();
    const tracer = turnTracer(options, turnId, sessionId, registry, request.traceContext);
    const save = (event: TurnEvent) => {
      tracer?.(event);
      if (event.type === 'tool-result' && store !== undefined) recordTrace(store, sessionId, turnId, event.call);
    };
    const result = await runTurn({
      ...this.#turnSettings(request.signal),
      ...(request.stream === undefined ? {} : { stream: request.stream }),
      registry,
      history: trimHistory(
        closeOpenToolCalls(history),
        Math.max(0, budget - 4 - (input === undefined ? 0 : estimateTokens(input))),
        text.cutNote,
      ),
      ...(input === undefined ? {} : { input }),
      ...(last?.role === 'user' && last.images !== undefined ? { inputImages: last.images } : {}),
      ...(request.system === undefined ? {} : { system: request.system }),
      ...(request.clientTools === undefined ? {} : { clientTools: request.clientTools }),
      ...(request.sampling === undefined ? {} : { sampling: request.sampling }),
      ...(request.responseFormat === undefined ? {} : { responseFormat: request.responseFormat }),
      ...(request.toolChoice === undefined ? {} : { toolChoice: request.toolChoice }),
      language,
      sessionId,
      turnId,
      ...(tracer === undefined ? {} : { tracer: tracer.tracer }),
      approvals: { desk: this.approvals, mode: request.approvals ?? 'deny' },
      onEvent: savingListener(save, request.onEvent),
    });
    // The caller keeps only the reply with its calls: ours before it are kept here for its next request.
    if (request.memory !== undefined && result.clientCalls !== undefined && result.toolCalls.length > 0) {
      request.memory.remember(result.clientCalls, input === undefined ? result.messages : result.messages.slice(1));
    }
    return result;
  }

  /** The same turn as an async iterable of events, ending with `done`. */
  stream(input: string, request: Omit<TurnRequest, 'onEvent'> = {}): AsyncIterable<TurnEvent> {
    return eventStream((push) => this.turn(input, { ...request, onEvent: push }));
  }

  /** The stored conversation of a session. */
  async history(session = 'default'): Promise<ChatMessage[]> {
    const store = this.#options.store;
    return store !== undefined
      ? store.messages((await store.session(session)).id)
      : (this.#memory.get(session)?.messages ?? []);
  }

  /** The turn settings that come from the options, the same for every kind of turn. */
  #turnSettings(
    signal: AbortSignal | undefined,
  ): Pick<
    TurnOptions,
    | 'model'
    | 'toolCalling'
    | 'textOnly'
    | 'maxRounds'
    | 'maxParallelCalls'
    | 'stream'
    | 'timeoutMs'
    | 'waitNoticeMs'
    | 'signal'
    | 'routing'
  > {
    const options = this.#options;
    return {
      model: options.model,
      textOnly: this.#textOnly,
      routing: { router: this.#router, settings: options.routing ?? null },
      ...(options.toolCalling === undefined ? {} : { toolCalling: options.toolCalling }),
      ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
      ...(options.maxParallelCalls === undefined ? {} : { maxParallelCalls: options.maxParallelCalls }),
      ...(options.stream === undefined ? {} : { stream: options.stream }),
      ...(options.turnTimeoutMs === undefined ? {} : { timeoutMs: options.turnTimeoutMs }),
      ...(options.waitNoticeMs === undefined ? {} : { waitNoticeMs: options.waitNoticeMs }),
      ...(signal === undefined ? {} : { signal }),
    };
  }

  #language(input: string, previous: Language | undefined): Language {
    const fixed = this.#options.language ?? 'auto';
    if (fixed !== 'auto') return fixed;
    const detected = detectLanguage(input);
    // A message without letters ("ok", "👍", "3") keeps the session's language.
    return detected === 'en' && !/[a-z]/i.test(input) && previous !== undefined ? previous : detected;
  }
}

/** What a task's call says that reaches `onTaskEvent`. */
const FORWARDED: ReadonlySet<TurnEvent['type']> = new Set(['question', 'question-ended', 'tool-log']);

/**
 * The turn's listener, and the events of its calls that became tasks (a question, its end, a log
 * line) to `onTaskEvent` too; once the turn is over, to `onTaskEvent` only (its listener has gone).
 */
function afterTheTurn(
  listener: (event: TurnEvent) => unknown,
  over: () => boolean,
  onTaskEvent: AssistantOptions['onTaskEvent'],
  sessionId: string,
): (event: TurnEvent) => unknown {
  const tasksOfCalls = new Map<string, string>();
  return (event) => {
    if (event.type === 'tool-result' && event.call.taskId !== undefined)
      tasksOfCalls.set(event.call.callId, event.call.taskId);
    const taskId = 'callId' in event ? tasksOfCalls.get(event.callId) : undefined;
    // A task's call is heard by whoever watches tasks from the moment it is one (its chat's client may
    // have gone already); its progress is the task's own (the runner's `task` events).
    if (taskId !== undefined && FORWARDED.has(event.type)) onTaskEvent?.({ taskId, sessionId, event });
    if (taskId === undefined || !over()) return listener(event);
    return undefined;
  };
}

/**
 * The results of the calls the last stored round left open (Riverse stopped while they waited, or
 * ran them after an approval given once the turn was gone): their traces, by call id.
 */
async function lateResults(
  store: Store,
  sessionId: string,
  history: readonly ChatMessage[],
): Promise<Map<string, { content: string; isError?: boolean }> | undefined> {
  const last = history.findLast((message) => message.role === 'assistant' && message.toolCalls !== undefined);
  if (last === undefined || last.role !== 'assistant' || last.toolCalls === undefined) return undefined;
  const answered = new Set(
    history
      .filter((message) => message.role === 'tool')
      .map((message) => (message.role === 'tool' ? message.toolCallId : '')),
  );
  const open = new Set(last.toolCalls.map((call) => call.id).filter((id) => !answered.has(id)));
  if (open.size === 0) return undefined;
  const results = new Map<string, { content: string; isError?: boolean }>();
  for (const trace of await storeCall('Reading tool calls', () => store.toolCalls(sessionId, { limit: 256 }))) {
    if (open.has(trace.callId)) results.set(trace.callId, resultContent(trace));
  }
  return results;
}

/** Saves each event, then tells the caller of it — even when saving failed; the store's failure is the one reported. */
function savingListener(
  save: (event: TurnEvent) => Promise<void> | undefined | void,
  onEvent: ((event: TurnEvent) => void) | undefined,
): (event: TurnEvent) => Promise<void> | undefined | void {
  return (event) => {
    let saveError: unknown;
    let saving: Promise<void> | undefined | void;
    try {
      saving = save(event);
    } catch (error) {
      saveError = error;
    }
    try {
      onEvent?.(event);
    } finally {
      // biome-ignore lint/correctness/noUnsafeFinally: the store's failure outranks the listener's, which it caused
      if (saveError !== undefined) throw saveError;
    }
    // A write under way: the turn waits for it before `done`, and ends `store-failed` when it fails.
    return saving;
  };
}

/**
 * The turn's tracer, and the listener that feeds it the turn's events and, at `done`, queues its
 * trace in the store and hands it to the export (when telemetry is on); none with neither.
 * Tracing never fails a turn: a fault in it is reported once and the trace dropped.
 */
function turnTracer(
  options: AssistantOptions,
  turnId: string,
  sessionId: string,
  registry: ToolRegistry,
  parent: TraceContext | undefined,
): (((event: TurnEvent) => void) & { tracer: TurnTracer }) | undefined {
  const { store, telemetry, model } = options;
  if (store === undefined && telemetry === undefined) return undefined;
  const tracer = new TurnTracer({
    turnId,
    sessionId,
    model,
    isolation: (tool) => registry.get(tool)?.isolation,
    ...(parent === undefined ? {} : { parent }),
    ...(telemetry === undefined ? {} : { propagate: true, captureContent: telemetry.captureContent }),
  });
  let broken = false;
  const listen = (event: TurnEvent) => {
    if (broken) return;
    try {
      tracer.event(event);
      if (event.type !== 'done') return;
      const trace = tracer.finish(event.result);
      store?.turnTraces.queue(trace);
      telemetry?.export(trace, {
        ...(tracer.parent === undefined ? {} : { parent: tracer.parent }),
        ...(tracer.content === undefined ? {} : { content: tracer.content }),
      });
    } catch (error) {
      broken = true;
      console.error(
        `[riverse] the trace of turn ${turnId} is dropped: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return Object.assign(listen, { tracer });
}

function recordTrace(store: Store, sessionId: string, turnId: string, call: ToolCallRecord): void {
  // Queued with the turn traces' batch: a transaction per call was a good part of a turn's CPU.
  storeCall('Saving a tool call', () =>
    store.queueToolCall({
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

/** A turn that could not start (the store failed before the model was asked): a result like any other, and its `done` event. */
function failedTurn(
  input: string,
  language: Language,
  error: unknown,
  onEvent: ((event: TurnEvent) => void) | undefined,
): TurnResult {
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
