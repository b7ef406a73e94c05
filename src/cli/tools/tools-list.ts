import { localizeDiagnostic } from '../../core/diagnostic.ts';
import { formatDiagnosticWithFrame, printJson, shortPath, shownListing, table } from '../format.ts';
import { loadTools, type GlobalOptions } from '../load-tools.ts';
import { TOOLS_TEXT } from './tools-text.ts';

/** `riverse tools list`: every tool found, available or why not; exit 1 when a tool file did not load, as `tools check`. */
export async function toolsList(options: GlobalOptions & { json?: boolean }): Promise<number> {
  const { registry } = await loadTools(options);
  const { language } = options;
  const text = TOOLS_TEXT[language];
  const rows = shownListing(registry, language);
  const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  // Tool files, not a folder or an MCP server: those are no tool file that failed.
  const toolFiles = new Set(registry.files.map((load) => load.file));
  const failed = new Set(errors.map((error) => error.file).filter((file) => toolFiles.has(file))).size;
  if (options.json === true) {
    printJson({
      tools: rows,
      diagnostics: registry.diagnostics.map((diagnostic) => localizeDiagnostic(diagnostic, language)),
    });
    return failed > 0 ? 1 : 0;
  }
  const folders = registry.folders.map(shortPath).join(', ');
  if (rows.length === 0 && failed > 0) {
    // Not "no tools, create one": there is one, and it did not load. That comes first.
    console.error(text.noneLoaded(folders, failed));
    for (const error of errors) console.error(formatDiagnosticWithFrame(error, language));
    console.error(text.runCheck);
    return 1;
  }
  if (rows.length === 0) console.log(text.noTools(folders));
  else {
    const status = (row: (typeof rows)[number]) =>
      row.available ? text.available : text.unavailable(row.reason ?? '');
    console.log(table([text.columns, ...rows.map((row) => [row.name, shortPath(row.file), status(row)])]));
  }
  if (errors.length > 0) {
    console.error(`\n${text.keptFromLoading(errors.length)}`);
    for (const error of errors) console.error(formatDiagnosticWithFrame(error, language));
    console.error(text.runCheck);
  }
  // A script that lists the tools learns that a file is missing from them, as from `tools check`.
  return failed > 0 ? 1 : 0;
}
