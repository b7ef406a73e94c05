import { resolve } from 'node:path';
import { Assistant } from '../assistant/assistant.ts';
import { resolveModel } from '../models/resolve-model.ts';
import { defaultDataDir } from '../store/data-dir.ts';
import { SessionStore } from '../store/session-store.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { loadTools, type GlobalOptions } from './load-tools.ts';

/** `assistant:` in riverse.yaml. */
export interface AssistantSettings {
  max_rounds?: number;
  history_tokens?: number;
}

/** Config, tools, model and (when `persist`) the session store, as `chat` and `ask` use them. */
export async function createAssistant(options: GlobalOptions & { lang?: Language; persist: boolean }) {
  const { loaded, registry } = await loadTools(options);
  const { config } = loaded;
  const model = resolveModel(config);
  const settings = (config.assistant ?? {}) as AssistantSettings;
  const dataDir = typeof config.data_dir === 'string' ? resolve(loaded.baseDir, config.data_dir) : defaultDataDir();
  const store = options.persist ? SessionStore.open(dataDir) : undefined;
  const language = options.lang ?? (config.language as Language | 'auto' | undefined) ?? 'auto';
  const assistant = new Assistant({
    model,
    registry,
    language,
    ...(store === undefined ? {} : { store }),
    ...(settings.max_rounds === undefined ? {} : { maxRounds: settings.max_rounds }),
    ...(settings.history_tokens === undefined ? {} : { historyTokens: settings.history_tokens }),
  });
  return { assistant, registry, store, config: loaded, dataDir };
}
