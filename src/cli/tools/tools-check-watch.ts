import { localizeDiagnostic } from '../../core/diagnostic.ts';
import { LiveToolRegistry, type ToolChange } from '../../tool-runtime/live-registry.ts';
import { loadCliConfig } from '../cli-config.ts';
import { formatDiagnosticWithFrame, shortPath } from '../format.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { TOOLS_TEXT } from './tools-text.ts';

/**
 * `riverse tools check --watch`: checks every tool, then again on every save, printing what changed
 * (added, changed, removed, broken, fixed) with the diagnostics; `--json`: one JSON object per event.
 * Runs until interrupted.
 */
export async function toolsCheckWatch(options: GlobalOptions & { json?: boolean }): Promise<number> {
  const loaded = await loadCliConfig(options.config);
  const live = await LiveToolRegistry.open({ config: loaded.config, baseDir: loaded.baseDir });
  const { language } = options;
  const text = TOOLS_TEXT[language];
  const print = (changes: ToolChange[]) => {
    for (const change of changes) {
      if (options.json === true) {
        process.stdout.write(
          `${JSON.stringify({ event: change.event, file: change.file, tools: change.tools, diagnostics: change.diagnostics.map((diagnostic) => localizeDiagnostic(diagnostic, language)) })}\n`,
        );
        continue;
      }
      const kept = change.event === 'broken' && change.tools.length > 0 ? text.keepsLastGood : '';
      console.log(
        `${time()} ${text.events[change.event]} ${shortPath(change.file)}${change.tools.length > 0 ? `: ${change.tools.join(', ')}` : ''}${kept}`,
      );
      for (const diagnostic of change.diagnostics)
        console.log(`  ${formatDiagnosticWithFrame(diagnostic, language).replaceAll('\n', '\n  ')}`);
    }
  };
  print(live.initial);
  if (options.json !== true) console.log(text.watching(live.setup.folders.map(shortPath).join(', ')));
  live.onChange((changes) => print(changes));
  // The watcher does not hold the process open by itself; this does, until Ctrl+C.
  const keepAlive = setInterval(() => {}, 1 << 30);
  await new Promise<void>((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
  clearInterval(keepAlive);
  await live.close();
  return 0;
}

function time(): string {
  return new Date().toTimeString().slice(0, 8);
}
