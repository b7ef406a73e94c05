import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Assistant } from '../assistant/assistant.ts';
import { chooseModel, type DownloadOffer } from '../models/resolve-model.ts';
import { CLI_TEXT } from './cli-text.ts';
import { defaultDataDir } from '../store/data-dir.ts';
import { SessionStore } from '../store/session-store.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { loadCliConfig } from './cli-config.ts';
import { defaultCacheDir } from '../tools/load-cache.ts';
import { ToolWorkers } from '../tools/isolation/tool-workers.ts';
import { DEFAULT_ISOLATION } from '../tools/app-config.ts';
import { LiveToolRegistry } from '../tools/live-registry.ts';
import type { GlobalOptions } from './load-tools.ts';

/**
 * Config, model, tools (kept up to date on every save when `watch`) and, when `persist`, the session
 * store, as `chat` and `ask` use them. The model is resolved first: without one, nothing else loads.
 */
export async function createAssistant(options: GlobalOptions & { lang?: Language; persist: boolean; watch: boolean; interactive?: boolean }) {
  const loaded = await loadCliConfig(options.config);
  const { config } = loaded;
  // A tool host starts at once, beside the model's resolution and the tools' loading: ready by the first call.
  const isolation = config.tools?.isolation ?? DEFAULT_ISOLATION;
  if (isolation !== 'none') ToolWorkers.startEarlySpare(isolation, config);
  const dataDir = config.data_dir !== undefined ? resolve(loaded.baseDir, config.data_dir) : defaultDataDir();
  const model = await chooseModel(config, process.env, {
    modelsDirectory: join(dataDir, 'models'),
    ...(options.interactive === true && process.stdin.isTTY === true
      ? { confirmDownload: (offer: DownloadOffer) => askYesNo(CLI_TEXT[options.language].offerDownload(offer.file, offer.sizeGb, offer.directory)) }
      : {}),
  });
  const tools = await LiveToolRegistry.open({ config, baseDir: loaded.baseDir, watch: options.watch, cacheDir: defaultCacheDir() });
  tools.current.prewarm(); // takes the spare started above
  const settings = config.assistant ?? {};
  const store = options.persist ? SessionStore.open(dataDir) : undefined;
  const language = options.lang ?? config.language ?? 'auto';
  const assistant = new Assistant({
    model,
    registry: () => tools.current,
    language,
    ...(store === undefined ? {} : { store }),
    ...(settings.max_rounds === undefined ? {} : { maxRounds: settings.max_rounds }),
    ...(settings.history_tokens === undefined ? {} : { historyTokens: settings.history_tokens }),
    ...(settings.turn_timeout_ms === undefined ? {} : { turnTimeoutMs: settings.turn_timeout_ms }),
  });
  return { assistant, tools, store, config: loaded, dataDir };
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
