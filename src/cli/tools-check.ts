import { formatDiagnostic } from '../tools/diagnostic.ts';
import { printJson, shortPath } from './format.ts';
import { loadTools, type GlobalOptions } from './load-tools.ts';

/** `riverse tools check`: loads everything, prints every diagnostic; exit 1 on errors (or warnings with --strict). */
export async function toolsCheck(options: GlobalOptions & { json?: boolean; strict?: boolean }): Promise<number> {
  const { registry } = await loadTools(options);
  const tools = registry.list();
  const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = registry.diagnostics.length - errors;
  const failed = errors > 0 || (options.strict === true && warnings > 0);
  if (options.json === true) {
    printJson({ ok: !failed, errors, warnings, tools, diagnostics: registry.diagnostics });
    return failed ? 1 : 0;
  }
  for (const diagnostic of registry.diagnostics) console.log(`${formatDiagnostic(diagnostic)}\n`);
  const available = tools.filter((tool) => tool.available).length;
  console.log(
    `Checked ${registry.folders.map(shortPath).join(', ')}: ${available} tool${available === 1 ? '' : 's'} available, ${tools.length - available} unavailable; ` +
      `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`,
  );
  return failed ? 1 : 0;
}
