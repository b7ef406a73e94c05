import { formatDiagnostic } from '../tools/diagnostic.ts';
import { printJson, shortPath, table } from './format.ts';
import { loadTools, type GlobalOptions } from './load-tools.ts';
import { RIVERSE_COMMAND } from './command-hints.ts';

/** `riverse tools list`: every tool found, available or why not. */
export async function toolsList(options: GlobalOptions & { json?: boolean }): Promise<number> {
  const { registry } = await loadTools(options);
  const rows = registry.list();
  if (options.json === true) {
    printJson({ tools: rows, diagnostics: registry.diagnostics });
    return 0;
  }
  if (rows.length === 0) console.log(`No tools found in ${registry.folders.map(shortPath).join(', ')}. Create one with: ${RIVERSE_COMMAND} tools new my_tool`);
  else {
    const status = (row: (typeof rows)[number]) => (row.available ? 'available' : `unavailable: ${row.reason ?? ''}`);
    console.log(table([['NAME', 'SOURCE', 'STATUS'], ...rows.map((row) => [row.name, shortPath(row.file), status(row)])]));
  }
  const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) {
    console.error(`\n${errors.length} problem${errors.length === 1 ? '' : 's'} kept tools from loading:`);
    for (const error of errors) console.error(formatDiagnostic(error));
    console.error(`Run \`${RIVERSE_COMMAND} tools check\` for every diagnostic.`);
  }
  return 0;
}
