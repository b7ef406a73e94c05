// The one way from riverse.yaml to an Assistant, for the CLI (chat, ask, tools eval) and the service
// alike: a setting the assistant reads is wired here once. What is not in the file — the model, the
// tools, the store, the router, a language fixed on the command line, a service's shared approvals —
// the caller adds.
import type { AssistantOptions } from '../assistant/assistant.ts';
import { assistantLimits } from '../assistant/assistant-settings.ts';
import { Approvals } from '../assistant/approvals.ts';
import type { Language } from '../core/language.ts';
import type { ChatModel } from '../models/chat-model.ts';
import { chosenToolCalling } from '../models/resolve-model.ts';
import type { ToolRouter } from '../routing/tool-router.ts';
import type { Store } from '../store/store.ts';
import type { TaskRetention } from '../store/store-records.ts';
import type { ToolSource } from '../tool-runtime/tool-source.ts';
import { DEFAULT_LIMITS } from '../tool-runtime/execute-tool.ts';
import { truncateResult } from '../tools/tool-result.ts';
import type { TurnExport } from '../telemetry/turn-export.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { RiverseConfig } from './riverse-config.ts';
import { LocalTaskRunner } from '../tasks/task-runner.ts';
import type { TaskDelivery } from '../assistant/task-delivery.ts';
import type { TurnEvent } from '../assistant/turn-events.ts';
import { taskCall } from '../assistant/task-run.ts';

/** The tools as the live registry holds them: `current` is read again at the start of every turn. */
export interface CurrentTools {
  readonly current: ToolRegistry;
}

/** What the caller adds to the config. */
export interface AssistantParts {
  model: ChatModel;
  tools: CurrentTools;
  /** Where sessions live; without one (`riverse ask` without `--session`), they last as long as the assistant. */
  store?: Store | undefined;
  /** The routing index, kept up to date by the caller as tools change; without one, the assistant makes its own. */
  router?: ToolRouter | (() => Promise<ToolRouter>) | undefined;
  /** A language fixed by the caller (`--lang`); without one, riverse.yaml's (assistantLanguage). */
  language?: Language | 'auto' | undefined;
  /** Runs the calls that outlive their turn (sharedTasks); without it every call is its turn's. */
  tasks?: LocalTaskRunner | undefined;
  /** Told when a task's result joins its session. */
  onTaskDelivered?: ((delivery: TaskDelivery) => void) | undefined;
  /** Told of what a task's call says after its turn (a question). */
  onTaskEvent?: AssistantOptions['onTaskEvent'] | undefined;
  /**
   * Approvals shared beyond this assistant: the service keeps one set across a change of model and
   * answers it on `/api/approvals` (sharedApprovals). Without, the assistant keeps its own in `store`.
   */
  approvals?: Approvals | undefined;
  /** Where each turn's trace is exported (startTelemetry: `telemetry:` and the OTEL_* variables); none when off. */
  telemetry?: TurnExport | undefined;
}

/** The language the assistant answers in: the caller's, else `language:` in riverse.yaml, else each message's own. */
export function assistantLanguage(config: RiverseConfig, language?: Language | 'auto'): Language | 'auto' {
  return language ?? config.language ?? 'auto';
}

/** The Assistant's options: `assistant:` (rounds, history budget, deadlines), `routing:`, `language:`, and the parts. */
export function assistantOptions(config: RiverseConfig, parts: AssistantParts): AssistantOptions {
  const { tools } = parts;
  const toolCalling = chosenToolCalling(config);
  return {
    model: parts.model,
    // Asked at the start of every turn: a reload or a switched tool is in the next turn.
    registry: () => tools.current,
    ...(parts.store === undefined ? {} : { store: parts.store }),
    ...(parts.router === undefined ? {} : { router: parts.router }),
    routing: config.routing ?? null,
    language: assistantLanguage(config, parts.language),
    // A mode the person chose wins over what the assistant learns of the model (a refusal of native tools).
    ...(toolCalling === undefined ? {} : { toolCalling }),
    ...(parts.tasks === undefined ? {} : { tasks: parts.tasks }),
    ...(parts.onTaskDelivered === undefined ? {} : { onTaskDelivered: parts.onTaskDelivered }),
    ...(parts.onTaskEvent === undefined ? {} : { onTaskEvent: parts.onTaskEvent }),
    ...(parts.approvals === undefined ? {} : { approvals: parts.approvals }),
    ...(parts.telemetry === undefined ? {} : { telemetry: parts.telemetry }),
    ...assistantLimits(config.assistant),
  };
}

/**
 * The approvals a service shares across its assistants (a new model keeps the calls waiting) and
 * answers on `/api/approvals`: kept in `store`, waiting `assistant.approval_timeout_ms`, as an
 * assistant's own would.
 */
export function sharedApprovals(
  config: RiverseConfig,
  parts: { store: Store; tools: CurrentTools; runsElsewhere?: (sessionId: string) => Promise<boolean> },
): Approvals {
  const { approvalTimeoutMs } = assistantLimits(config.assistant);
  const { tools } = parts;
  return new Approvals({
    store: parts.store,
    registry: () => tools.current,
    ...(parts.runsElsewhere === undefined ? {} : { runsElsewhere: parts.runsElsewhere }),
    ...(approvalTimeoutMs === undefined ? {} : { timeoutMs: approvalTimeoutMs }),
  });
}

/**
 * The task runner of a process (the service, a chat): its tasks kept in `store`, beside the
 * sessions they deliver into; a task started by the API or MCP runs the tool as the registry holds
 * it now, through the approval gate of `approvals` (decision 032). Its start marks the tasks a
 * stopped process left running as interrupted.
 */
export function sharedTasks(parts: {
  store: Store;
  tools: CurrentTools;
  approvals?: Approvals;
  /** Told of the approval and question events of a task's call. */
  emit?: (taskId: string, event: TurnEvent) => void;
  /** Told when the store fails at start, while ending the tasks a stopped process left running. */
  onStartError?: (error: unknown) => void;
  /** `store.tasks:` (taskRetention); the store's defaults otherwise. */
  retention?: Partial<TaskRetention>;
  /** The tool sources (MCP servers, ready): the remote tasks a stopped process was waiting on are picked up again through them. */
  sources?: readonly ToolSource[];
}): LocalTaskRunner {
  const { tools } = parts;
  const runner = new LocalTaskRunner({
    records: parts.store.tasks,
    inputs: parts.store.taskInputs,
    ...(parts.retention === undefined ? {} : { retention: parts.retention }),
    run: taskCall(() => tools.current, parts.approvals, parts.emit),
    ...(parts.onStartError === undefined ? {} : { onStartError: parts.onStartError }),
  });
  const sources = parts.sources ?? [];
  void runner.resumeRemote((ref, signal) => {
    for (const source of sources) {
      const waiting = source.resumeTask?.(ref, signal);
      // Bounded as any call's result is.
      if (waiting !== undefined)
        return waiting.then((outcome) =>
          'interrupted' in outcome
            ? outcome
            : truncateResult(outcome, DEFAULT_LIMITS.maxResultChars, DEFAULT_LIMITS.maxResultBytes),
        );
    }
    return undefined;
  });
  return runner;
}
