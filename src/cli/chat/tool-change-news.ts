import { readFileSync } from 'node:fs';
import type { ToolChange } from '../../tool-runtime/live-registry.ts';
import type { ToolRegistry } from '../../tool-runtime/tool-registry.ts';

/**
 * Keeps only the changes worth telling: a file whose text, tools or diagnostics differ from what
 * was last told of it. A reload reloads more than was saved (every file of a folder whose helper
 * changed), and one save can bring several reloads (an editor writes, renames, touches); told
 * each time, a person reads of files they did not change, again and again.
 */
export function toolChangeNews(initial: ToolRegistry): (changes: readonly ToolChange[]) => ToolChange[] {
  const told = new Map<string, string>();
  for (const load of initial.files)
    told.set(
      load.file,
      fingerprint(
        load.file,
        load.tools.map((tool) => tool.name),
        load.diagnostics,
      ),
    );
  return (changes) =>
    changes.filter((change) => {
      if (change.event === 'removed') {
        told.delete(change.file);
        return true;
      }
      const now = fingerprint(change.file, change.tools, change.diagnostics);
      if (told.get(change.file) === now) return false;
      told.set(change.file, now);
      return true;
    });
}

function fingerprint(file: string, tools: readonly string[], diagnostics: ToolChange['diagnostics']): string {
  let text: string | null;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = null;
  }
  return JSON.stringify([
    text,
    tools,
    diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line, diagnostic.message]),
  ]);
}
