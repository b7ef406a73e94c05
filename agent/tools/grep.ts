import { closeSync, fstatSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';
import { looksBinary, readStart } from './_file-text.ts';
import { confinedPath, fileRoots, openConfinedForRead, refusal } from './_roots.ts';

type Params = { pattern: string; path: string; regex: boolean; ignore_case: boolean };

/** Most matching lines returned, files looked at, bytes read of one file; longest line shown. */
const MAX_MATCHES = 200;
const MAX_FILES = 5_000;
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_LINE_CHARS = 300;
/** Folders that hold other people's files, not the user's. */
const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * Searches the text files under a folder inside the allowed folders (`tools.files.roots`) for a
 * word or a regular expression. Symbolic links are not followed; binary and large files are skipped.
 * Config: tools.grep.max_matches (200).
 */
export class GrepTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'grep',
      description: {
        en: 'Search the text of workspace files for a word or a pattern',
        zh: '在工作区文件的内容中搜索一个词或模式',
        ja: 'ワークスペースのファイルの中身から語やパターンを検索する',
      },
      parameters: {
        pattern: {
          type: 'string',
          required: true,
          description: { en: 'The text to find', zh: '要查找的文本', ja: '探すテキスト' },
        },
        path: {
          type: 'string',
          default: '.',
          description: {
            en: 'File or folder to search, relative to the workspace or absolute',
            zh: '要搜索的文件或文件夹',
            ja: '検索するファイルまたはフォルダ',
          },
        },
        regex: {
          type: 'boolean',
          default: false,
          description: {
            en: 'Treat the pattern as a JavaScript regular expression',
            zh: '把模式当作 JavaScript 正则表达式',
            ja: 'パターンを JavaScript の正規表現として扱う',
          },
        },
        ignore_case: {
          type: 'boolean',
          default: true,
          description: { en: 'Ignore upper and lower case', zh: '忽略大小写', ja: '大文字と小文字を区別しない' },
        },
      },
      examples: {
        en: ['Which of my notes mention "invoice"?', 'Find where TODO appears in the project files'],
        zh: ['我的哪些笔记提到了“发票”？', '在项目文件中查找 TODO 出现的位置'],
        ja: ['「請求書」に触れているメモはどれ？', 'プロジェクトのファイルで TODO がある場所を探して'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
  }

  execute(params: Params, context: ToolContext): ToolResult {
    if (params.pattern === '') return ToolResult.fail('Give a pattern to look for, e.g. {"pattern": "invoice"}.');
    const roots = fileRoots(this.config);
    const maxMatches = Number(context.config.max_matches ?? MAX_MATCHES);
    let matcher: RegExp;
    try {
      const source = params.regex ? params.pattern : params.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      matcher = new RegExp(source, params.ignore_case ? 'iu' : 'u');
    } catch (error) {
      return ToolResult.fail(
        `The pattern is not a valid regular expression: ${(error as Error).message}; set "regex": false to search for the text as it is.`,
      );
    }
    let top: string;
    try {
      top = confinedPath(params.path, roots);
    } catch (error) {
      return refusal(error);
    }
    const matches: string[] = [];
    let files = 0;
    let stopped = '';
    const search = (file: string): void => {
      files++;
      let opened;
      try {
        // Each file is opened as file_read opens it: a link or a swapped folder leads nowhere outside.
        opened = openConfinedForRead(file, roots);
      } catch {
        return;
      }
      try {
        const stats = fstatSync(opened.fd);
        if (!stats.isFile() || stats.size > MAX_FILE_BYTES) return;
        const bytes = readStart(opened.fd, stats.size);
        if (looksBinary(bytes)) return;
        const lines = bytes.toString('utf8').split('\n');
        for (const [index, line] of lines.entries()) {
          if (!matcher.test(line)) continue;
          if (matches.length >= maxMatches) {
            stopped = `\n…[stopped at ${maxMatches} matching lines]`;
            return;
          }
          const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
          matches.push(`${relative(top, file) || relative(roots[0]!, file) || file}:${index + 1}: ${shown}`);
        }
      } finally {
        closeSync(opened.fd);
      }
    };
    const walk = (folder: string): void => {
      let entries;
      try {
        // Checked again as it is listed: a subfolder swapped for a link out since its parent was read leads nowhere.
        confinedPath(folder, roots);
        entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      } catch {
        return;
      }
      for (const entry of entries) {
        if (stopped !== '' || context.signal.aborted) return;
        if (files >= MAX_FILES) {
          stopped = `\n…[stopped after looking at ${MAX_FILES} files]`;
          return;
        }
        const path = join(folder, entry.name);
        if (entry.isDirectory() && !SKIPPED.has(entry.name)) walk(path);
        else if (entry.isFile()) search(path);
      }
    };
    if (lstatSync(top).isDirectory()) walk(top);
    else search(top);
    if (matches.length === 0)
      return ToolResult.ok(
        `No line matches ${JSON.stringify(params.pattern)} in ${params.path} (${files} files searched).`,
      );
    return ToolResult.ok(matches.join('\n') + stopped);
  }
}
