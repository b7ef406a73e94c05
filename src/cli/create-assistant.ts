import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Assistant } from '../assistant/assistant.ts';
import type { ToolRouter } from '../routing/tool-router.ts';
import { ROUTE_TEXT } from './route-text.ts';
import { assistantLanguage, assistantOptions, sharedTasks } from '../config/assistant-options.ts';
import type { TaskDelivery } from '../assistant/task-delivery.ts';
import { CONFIG_FILE, type LoadedConfig } from '../config/load-config.ts';
import type { ChatModel } from '../models/chat-model.ts';
import { ModelError } from '../models/model-error.ts';
import { chooseModel, type ChooseModelOptions, type DownloadOffer } from '../models/resolve-model.ts';
import { CLI_TEXT } from './cli-text.ts';
import { cliDataDir } from './data-folder.ts';
import { taskRetention, traceRetention } from '../store/store-settings.ts';
import { withToolSwitches } from '../config/tool-switches.ts';
import { startTelemetry } from '../telemetry/start-telemetry.ts';
import { TelemetrySettingError } from '../telemetry/telemetry-settings.ts';
import { UsageError } from './usage-error.ts';
import packageJson from '../../package.json' with { type: 'json' };
import type { Language } from '../core/language.ts';
import { loadCliConfig } from './cli-config.ts';
import { defaultCacheDir } from '../tool-runtime/load-cache.ts';
import { ToolWorkers } from '../tool-runtime/isolation/tool-workers.ts';
import { DEFAULT_ISOLATION } from '../tools/app-config.ts';
import { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import type { GlobalOptions } from './load-tools.ts';
import type { TurnExport } from '../telemetry/turn-export.ts';
import { openMcp } from './open-mcp.ts';

type SetupOptions = GlobalOptions & { lang?: Language; persist: boolean; watch: boolean };

/**
 * Config, model, tools (kept up to date on every save when `watch`) and, when `persist`, the session
 * store, as `chat` and `ask` use them. The model is resolved first: without one, nothing else loads.
 */
export async function createAssistant(
  options: SetupOptions & {
    interactive?: boolean;
    /** Run the calls that outlive a turn as tasks (`riverse chat`: the chat's process runs them while it is open). */
    tasks?: { onDelivered: (delivery: TaskDelivery) => void };
  },
) {
  const setup = await beginSetup(options);
  const model = await chooseModel(setup.config.config, process.env, {
    ...setup.modelOptions,
    ...(options.interactive === true && process.stdin.isTTY === true
      ? {
          confirmDownload: (offer: DownloadOffer) =>
            askYesNo(CLI_TEXT[options.language].offerDownload(offer.file, offer.sizeGb, offer.directory)),
        }
      : {}),
  });
  const { tools, store, router } = await finishSetup(setup, { ...options, canAsk: options.interactive === true });
  const telemetry = setup.telemetry;
  const tasks =
    options.tasks === undefined || store === undefined
      ? undefined
      : sharedTasks({ store, tools, retention: taskRetention(setup.config.config), sources: tools.setup.sources });
  // No shared approvals: the assistant keeps its own (in the store, when there is one).
  const assistant = new Assistant(
    assistantOptions(setup.config.config, {
      model,
      tools,
      store,
      router,
      language: setup.language,
      telemetry,
      tasks,
      onTaskDelivered: options.tasks?.onDelivered,
    }),
  );
  return { assistant, tools, store, tasks, config: setup.config, dataDir: setup.dataDir };
}

/**
 * The same set-up for `serve`, which runs without a model: the model when one is there (found
 * without asking anything), else undefined and, when one was named, why it could not be made
 * (`modelProblem`). Tools are watched and sessions stored.
 */
export async function createService(options: GlobalOptions & { lang?: Language }) {
  const setup = await beginSetup(options);
  let model: ChatModel | undefined;
  let modelProblem: ModelError | undefined;
  try {
    model = await chooseModel(setup.config.config, process.env, setup.modelOptions);
  } catch (error) {
    if (!(error instanceof ModelError && error.code === 'not-configured')) throw error;
    // Said only for a model that was named: with none named, the hint to connect one is the news.
    if (process.env.RIVERSE_MODEL || setup.config.config.model !== undefined) modelProblem = error;
  }
  const { tools, store, router } = await finishSetup(setup, {
    persist: true,
    watch: true,
    language: options.language,
    canAsk: true,
    service: true,
  });
  // The file the service writes (a switched tool) is the one read, else riverse.yaml where it would have been.
  const file = setup.config.path ?? join(setup.config.baseDir, CONFIG_FILE);
  return {
    model,
    modelProblem,
    tools,
    router,
    store: store!,
    config: { ...setup.config, file },
    dataDir: setup.dataDir,
    language: setup.language,
    telemetry: setup.telemetry,
  };
}

interface Setup {
  config: LoadedConfig;
  dataDir: string;
  language: Language | 'auto';
  modelOptions: ChooseModelOptions;
  /** The OpenTelemetry export, when `telemetry:` or the OTEL_* variables turn it on. */
  telemetry: TurnExport | undefined;
}

/** The config read, where data is kept, and a tool host started at once, beside the model's resolution and the tools' loading: ready by the first call. */
async function beginSetup(options: GlobalOptions & { lang?: Language }): Promise<Setup> {
  const loaded = await loadCliConfig(options.config);
  const { config } = loaded;
  const isolation = config.tools?.isolation ?? DEFAULT_ISOLATION;
  if (isolation !== 'none') ToolWorkers.startEarlySpare(isolation, config);
  const dataDir = cliDataDir(loaded);
  let telemetry: TurnExport | undefined;
  try {
    telemetry = await startTelemetry(config.telemetry, { language: options.language, version: packageJson.version });
  } catch (error) {
    if (error instanceof TelemetrySettingError) throw new UsageError(error.localized(options.language));
    throw error;
  }
  return {
    config: loaded,
    dataDir,
    language: assistantLanguage(config, options.lang),
    modelOptions: { modelsDirectory: join(dataDir, 'models') },
    telemetry,
  };
}

/**
 * The tools loaded (watched when `watch`) and, when `persist`, the store opened; the tool switches
 * kept in the store (the dashboard's) win over riverse.yaml's, in `setup.config` from now on.
 */
async function finishSetup(
  setup: Setup,
  options: { persist: boolean; watch: boolean; language: Language; canAsk: boolean; service?: boolean },
) {
  // Imported only to be opened: `riverse ask` without --session keeps nothing, and does not load SQLite's parts.
  const store = options.persist
    ? await (await import('../store/open-store.ts')).openStore(setup.dataDir, setup.config.config, {
        traceRetention: traceRetention(setup.config.config),
        language: options.language, // a PostgreSQL store's retries at start are said in it
        // A service's turns write all day: SQLite's checkpoints go to a worker, off the event loop.
        ...(options.service === true ? { checkpointOffThread: true } : {}),
      })
    : undefined;
  if (store !== undefined)
    setup.config = { ...setup.config, config: withToolSwitches(setup.config.config, await store.toolSwitches.all()) };
  const { config, baseDir } = setup.config;
  // The MCP servers start while the tool files load; the live registry takes each one in as it connects.
  const mcp = await openMcp(config, baseDir, {
    canAsk: options.canAsk,
    ...(store === undefined ? {} : { tokens: store.oauth }),
  });
  const [tools] = await Promise.all([
    LiveToolRegistry.open({
      config,
      baseDir,
      watch: options.watch,
      cacheDir: defaultCacheDir(),
      ...(mcp === undefined ? {} : { sources: [mcp] }),
    }),
    mcp?.ready(),
  ]);
  tools.current.prewarm(); // takes the spare started early
  return { tools, store, router: routerFor(setup, tools, options.language) };
}

/**
 * The routing index (routing: in riverse.yaml), made when a turn first routes (a catalog that fits
 * whole never does, and the router's modules cost a start ~50–90 ms), then following every reload
 * at once, tool by tool, rather than at the next turn.
 */
function routerFor(setup: Setup, tools: LiveToolRegistry, language: Language): () => Promise<ToolRouter> {
  let made: Promise<ToolRouter> | undefined;
  const make = async () => {
    const [{ createToolRouter }, { createLocalEmbeddings }] = await Promise.all([
      import('../routing/create-router.ts'),
      import('../models/providers/local/local-embeddings.ts'),
    ]);
    let warned = false;
    const router = createToolRouter(setup.config.config.routing, {
      dataDir: setup.dataDir,
      localModel: (path) => createLocalEmbeddings({ path: resolve(setup.config.baseDir, path) }),
      onSemanticError: (error) => {
        // Said once: the turns go on with the lexical ranking alone.
        if (!warned)
          process.stderr.write(
            `${ROUTE_TEXT[language].semanticFailed(error instanceof Error ? error.message : String(error))}\n`,
          );
        warned = true;
      },
    });
    tools.onChange((_, registry) => router.sync(registry.tools()));
    return router;
  };
  return () => (made ??= make());
}

/** A yes/no question on the terminal; anything but y/yes is no. */
async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
