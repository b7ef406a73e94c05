import { ToolWorkers } from '../tool-runtime/isolation/tool-workers.ts';
import { DEFAULT_ISOLATION } from '../tools/app-config.ts';
import { loadCliConfig } from './cli-config.ts';

/**
 * Starts the first tool host before a command that runs turns loads the assistant (~300 modules),
 * so that the host's own start (~100 ms: a Node process and the tool contract) runs beside that
 * loading instead of after it; the assistant's tool workers take it (`ToolWorkers.startEarlySpare`).
 * A config that cannot be read starts nothing here: the command reads it again and says what is wrong.
 */
export async function startHostEarly(configPath: string | undefined): Promise<void> {
  let config: Awaited<ReturnType<typeof loadCliConfig>>['config'];
  try {
    ({ config } = await loadCliConfig(configPath));
  } catch {
    return;
  }
  const isolation = config.tools?.isolation ?? DEFAULT_ISOLATION;
  if (isolation !== 'none') ToolWorkers.startEarlySpare(isolation, config);
}
