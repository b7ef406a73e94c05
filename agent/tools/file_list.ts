import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';
import { confinedPath, fileRoots, refusal } from './_roots.ts';

type Params = { path: string; depth: number };

/** Most entries listed: `tools.file_list.max_entries`. */
const MAX_ENTRIES = 500;
const MAX_DEPTH = 5;

/**
 * Lists a folder inside the allowed folders (`tools.files.roots`). Symbolic links are shown, never
 * followed. Config: tools.file_list.max_entries (500).
 */
export class FileListTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'file_list',
      description: {
        en: 'List the files and folders in a workspace folder',
        zh: '列出工作区文件夹中的文件和子文件夹',
        ja: 'ワークスペースのフォルダにあるファイルとフォルダを一覧する',
      },
      parameters: {
        path: {
          type: 'string',
          default: '.',
          description: {
            en: 'Folder path, relative to the workspace or absolute',
            zh: '文件夹路径，相对于工作区或绝对路径',
            ja: 'フォルダのパス（ワークスペースからの相対パスまたは絶対パス）',
          },
        },
        depth: {
          type: 'integer',
          default: 1,
          description: {
            en: `How many levels of subfolders to show (1–${MAX_DEPTH})`,
            zh: `显示几层子文件夹（1–${MAX_DEPTH}）`,
            ja: `表示するサブフォルダの階層数（1–${MAX_DEPTH}）`,
          },
        },
      },
      examples: {
        en: ['What files are in my project folder?', 'List the contents of the notes folder'],
        zh: ['我的项目文件夹里有哪些文件？', '列出 notes 文件夹的内容'],
        ja: ['プロジェクトのフォルダにはどんなファイルがある？', 'notes フォルダの中身を一覧して'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
  }

  execute(params: Params, context: ToolContext): ToolResult {
    const roots = fileRoots(this.config);
    const maxEntries = Number(context.config.max_entries ?? MAX_ENTRIES);
    let top: string;
    try {
      top = confinedPath(params.path, roots);
    } catch (error) {
      return refusal(error);
    }
    if (!lstatSync(top).isDirectory())
      return ToolResult.fail(`${params.path} is a file, not a folder; use file_read to read it.`);
    const lines: string[] = [];
    let more = false;
    const walk = (folder: string, level: number): void => {
      let entries;
      try {
        // Checked again as it is listed: a subfolder swapped for a link out since its parent was read leads nowhere.
        confinedPath(folder, roots);
        entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      } catch (error) {
        lines.push(
          `${relative(top, folder) || '.'}/: cannot be listed (${(error as NodeJS.ErrnoException).code ?? 'it now leads outside the allowed folders'})`,
        );
        return;
      }
      for (const entry of entries) {
        if (lines.length >= maxEntries) {
          more = true;
          return;
        }
        const path = join(folder, entry.name);
        const shown = relative(top, path);
        if (entry.isSymbolicLink()) lines.push(`${shown} -> (symbolic link, not followed)`);
        else if (entry.isDirectory()) {
          lines.push(`${shown}/`);
          if (level < Math.min(params.depth, MAX_DEPTH)) walk(path, level + 1);
        } else {
          const size = lstatSync(path, { throwIfNoEntry: false })?.size;
          lines.push(size === undefined ? shown : `${shown}  (${size.toLocaleString('en')} bytes)`);
        }
      }
    };
    walk(top, 1);
    if (lines.length === 0) return ToolResult.ok(`${params.path} is empty.`);
    return ToolResult.ok(
      lines.join('\n') + (more ? `\n…[more entries not shown: at most ${maxEntries} are listed]` : ''),
    );
  }
}
