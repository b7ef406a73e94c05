import type { ToolRouter } from '../routing/tool-router.ts';
import { Assistant } from '../assistant/assistant.ts';
import type { TurnExport } from '../telemetry/turn-export.ts';
import type { Approvals } from '../assistant/approvals.ts';
import { assistantLanguage, assistantOptions, sharedApprovals, sharedTasks } from '../config/assistant-options.ts';
import type { LocalTaskRunner } from '../tasks/task-runner.ts';
import type { TaskDelivery } from '../assistant/task-delivery.ts';
import type { TurnEvent } from '../assistant/turn-events.ts';
import type { RiverseConfig } from '../config/riverse-config.ts';
import type { ChatModel } from '../models/chat-model.ts';
import type { ModelError } from '../models/model-error.ts';
import type { Store } from '../store/store.ts';
import { taskRetention } from '../store/store-settings.ts';
import type { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import type { Language } from '../core/language.ts';
import { createModelDownloader, type ModelDownloader } from './api/model-download.ts';
import { signIns } from '../mcp/oauth/sign-ins.ts';
import { taskView } from './api/task-view.ts';
import { ServerEvents } from './server-events.ts';
import { SERVER_TEXT } from './server-text.ts';
import { TurnOwnership } from './turn-ownership.ts';
import { PendingWatch } from './pending-watch.ts';
import { ToolSwitchSync } from './tool-switch-sync.ts';

/** The config the service runs with; `config` is replaced when the service rewrites the file. */
interface ServiceConfig {
  config: RiverseConfig;
  /** Folder that relative paths in the config are resolved from. */
  baseDir: string;
  /** The riverse.yaml the service reads and writes (it may not exist yet). */
  file: string;
}

/**
 * The one object every route gets (the REST API, `/v1`, the dashboard):
 * - `tools`: the live registry (reloaded on every save); take `tools.current` once per request.
 * - `store`: sessions, messages and tool-call traces.
 * - `config`: riverse.yaml as read, its folder and its path.
 * - `assistant()`: the assistant, once there is a model (undefined while there is none).
 * - `setModel(model)`: makes `model` the one the service uses (after a download, say) and tells
 *   `/api/events` (`model` `{ id }`).
 * - `events`: what every open `/api/events` stream is sent (`publish(type, data)`).
 * - `language`: the assistant's language setting (a fixed one, or 'auto').
 * - `logLanguage`: the language of the person who started the service, for what it prints.
 * - `download`: the default model's download (`POST /api/model/download`), its state for `/api/status`;
 *   made with the context, one per service.
 */
export interface ServerContext {
  tools: LiveToolRegistry;
  store: Store;
  config: ServiceConfig;
  assistant(): Assistant | undefined;
  setModel(model: ChatModel): void;
  events: ServerEvents;
  /** Where calls wait for a person's approval, the same across a change of model (`/api/approvals`). */
  approvals: Approvals;
  /** The calls that outlive their turn (`/api/tasks`), the same across a change of model; closed with the service. */
  tasks: LocalTaskRunner;
  language: Language | 'auto';
  logLanguage: Language;
  dataDir: string;
  version: string;
  download: ModelDownloader;
  /** How a new chat is named: `model` asks the model for a short title (the default), `cut` takes its first words. */
  sessionTitles: 'model' | 'cut';
  /** Why the model riverse.yaml or RIVERSE_MODEL names could not be made, while there is no model. */
  modelProblem: ModelError | undefined;
  /** Where turns, runs by hand and MCP calls are exported (OpenTelemetry); none when telemetry is off. */
  telemetry: TurnExport | undefined;
  /** This replica's id and its sessions' turns, claimed in the store that replicas share (turn-ownership.ts). */
  turns: TurnOwnership;
  /** The dashboard's tool switches: set here, and followed when another replica sets one (tool-switch-sync.ts). */
  toolSwitches: ToolSwitchSync;
  /** Ends what the context runs beside the routes (the heartbeat, the watch of approvals); the service's close calls it. */
  close(): Promise<void>;
}

export interface ServerContextOptions {
  tools: LiveToolRegistry;
  store: Store;
  config: ServiceConfig;
  model?: ChatModel | undefined;
  /** The routing index and its budget (riverse.yaml `routing:`); without them the catalog is offered whole. */
  router?: ToolRouter | (() => Promise<ToolRouter>);
  language?: Language | 'auto';
  /** What the service prints is in this language (default: the assistant's, when fixed; else English). */
  logLanguage?: Language;
  dataDir: string;
  version: string;
  /** How a new chat is named (default `model`: a title from the model, when there is one). */
  sessionTitles?: 'model' | 'cut';
  /** Why the model that was named could not be made (shown in the connect hint). */
  modelProblem?: ModelError | undefined;
  /** Where each turn's trace is exported (OpenTelemetry); none when telemetry is off. */
  telemetry?: TurnExport | undefined;
}

export function createServerContext(options: ServerContextOptions): ServerContext {
  let assistant: Assistant | undefined;
  const logText = SERVER_TEXT[options.logLanguage ?? 'en'];
  const turns = new TurnOwnership(options.store, {
    onInterrupted: (turn, reason) => console.error(logText.turnInterrupted(turn.sessionId, reason)),
    onError: (error) => console.error(logText.heartbeatFailed(error instanceof Error ? error.message : String(error))),
  });
  const approvals = sharedApprovals(options.config.config, {
    ...options,
    runsElsewhere: (sessionId) => turns.runsElsewhere(sessionId),
  });
  const events = new ServerEvents();
  // Every replica's approval requests reach this one's event streams (they are read from the shared store).
  const pendingWatch = new PendingWatch(options.store, events);
  // A tool switched on another replica is switched here too (its reload reaches /api/events as tools-changed).
  const toolSwitches = new ToolSwitchSync(options.store, options.tools, options.config, (error) =>
    console.error(logText.switchesNotFollowed(error instanceof Error ? error.message : String(error))),
  );
  // A task's changes and its questions reach every open event stream; so does its result's arrival in its session.
  const tasks = sharedTasks({
    retention: taskRetention(options.config.config),
    sources: options.tools.setup.sources,
    store: options.store,
    tools: options.tools,
    approvals,
    emit: (taskId, event) => events.publish('task-call', { taskId, event }),
    onStartError: (error) =>
      console.error(
        SERVER_TEXT[options.logLanguage ?? 'en'].tasksNotEnded(error instanceof Error ? error.message : String(error)),
      ),
  });
  tasks.onChange((task) => events.publish('task', { task: taskView(task) }));
  // The page knows a conversation by name; a store that fails leaves the name out, not the event.
  const sessionName = (id: string): Promise<string | undefined> =>
    options.store.listSessions().then(
      (sessions) => sessions.find((session) => session.id === id)?.name,
      () => undefined,
    );
  // A question a task's call asks once its chat has gone: the dashboard shows it in that chat.
  const onTaskEvent = (taskEvent: { taskId: string; sessionId: string; event: TurnEvent }) =>
    void sessionName(taskEvent.sessionId).then((session) => events.publish('task-call', { ...taskEvent, session }));
  const onTaskDelivered = (delivery: TaskDelivery) =>
    void sessionName(delivery.sessionId).then((session) =>
      events.publish('task-delivered', {
        sessionId: delivery.sessionId,
        session,
        task: taskView(delivery.task),
        message: delivery.message,
      }),
    );
  const context: ServerContext = {
    tools: options.tools,
    store: options.store,
    config: options.config,
    events,
    approvals,
    tasks,
    language: assistantLanguage(options.config.config, options.language),
    logLanguage: options.logLanguage ?? fixedLanguage(assistantLanguage(options.config.config, options.language)),
    dataDir: options.dataDir,
    version: options.version,
    sessionTitles: options.sessionTitles ?? 'model',
    modelProblem: options.modelProblem,
    telemetry: options.telemetry,
    turns,
    toolSwitches,
    async close() {
      pendingWatch.close();
      await Promise.all([toolSwitches.close(), turns.close()]);
    },
    assistant: () => assistant,
    setModel(model) {
      // The config as it is now (the service may have rewritten it); the approvals outlive the model.
      const parts = {
        model,
        tools: context.tools,
        store: context.store,
        router: options.router,
        language: context.language,
        tasks,
        onTaskDelivered,
        onTaskEvent,
        approvals,
        telemetry: options.telemetry,
      };
      assistant?.close();
      assistant = new Assistant(assistantOptions(context.config.config, parts));
      context.events.publish('model', { id: model.id });
    },
    // Once it loads, the downloaded model is the service's (setModel, below).
    download: createModelDownloader({ events, dataDir: options.dataDir, setModel: (model) => context.setModel(model) }),
  };
  if (options.model !== undefined) context.setModel(options.model);
  // A call approved just before the service stopped, whose run never began, runs now (its answer was stored).
  // After the sweep at start: a turn a killed process of this host left no longer counts as running elsewhere.
  turns.started
    .then(() => approvals.resume())
    .catch((error: unknown) =>
      console.error(
        SERVER_TEXT[context.logLanguage].resumeFailed(error instanceof Error ? error.message : String(error)),
      ),
    );
  // Every reload reaches the open event streams (the files and diagnostics as each page reads them).
  options.tools.onChange((changes) => context.events.publish('tools-changed', { changes }));
  // An MCP server's sign-in link reaches the dashboard as it is made (and stays listed at /api/mcp/sign-ins).
  signIns.onSignIn((sign) => context.events.publish('mcp-sign-in', sign));
  return context;
}

function fixedLanguage(language: Language | 'auto'): Language {
  return language === 'auto' ? 'en' : language;
}
