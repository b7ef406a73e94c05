import { loadConfig, type LoadedConfig } from '../config/load-config.ts';

const loads = new Map<string | undefined, Promise<LoadedConfig>>();

/**
 * The config, read once per process: the language is worked out from it before the command line
 * is parsed (help text included), and the command reads it again. A config that cannot be read
 * rejects every caller alike, so the command reports it where it always did.
 */
export function loadCliConfig(path: string | undefined): Promise<LoadedConfig> {
  let load = loads.get(path);
  if (load === undefined) {
    load = loadConfig(path === undefined ? {} : { path });
    loads.set(path, load);
    load.catch(() => {}); // handled by whoever awaits it; the early language look-up only peeks
  }
  return load;
}
