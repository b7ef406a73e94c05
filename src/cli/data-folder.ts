import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load-config.ts';
import { defaultDataDir } from '../store/data-dir.ts';

/** Where the command keeps its data: riverse.yaml's `data_dir` (from the config's folder), else the default. */
export function cliDataDir(loaded: LoadedConfig): string {
  const { config } = loaded;
  return config.data_dir !== undefined ? resolve(loaded.baseDir, config.data_dir) : defaultDataDir();
}
