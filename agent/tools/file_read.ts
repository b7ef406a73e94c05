import { closeSync, fstatSync } from 'node:fs';
import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';
import { describeBinary, imageType, looksBinary, readStart } from './_file-text.ts';

/** The largest picture returned as an image part (a result's parts may hold 6 MiB in all); a larger one is described. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
import { fileRoots, openConfinedForRead, refusal } from './_roots.ts';

type Params = { path: string; offset: number; limit?: number };

/** Longest read, in bytes: `tools.file_read.max_bytes`. */
const MAX_BYTES = 256 * 1024;

/**
 * Reads a text file inside the allowed folders (`tools.files.roots`, by default the folder
 * Riverse runs in). Config: tools.file_read.max_bytes (262144).
 */
export class FileReadTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'file_read',
      description: {
        en: 'Read a text file from the workspace folders',
        zh: '读取工作区文件夹中的文本文件',
        ja: 'ワークスペースのフォルダにあるテキストファイルを読む',
      },
      parameters: {
        path: {
          type: 'string',
          required: true,
          description: {
            en: 'File path, relative to the workspace or absolute',
            zh: '文件路径，相对于工作区或绝对路径',
            ja: 'ファイルのパス（ワークスペースからの相対パスまたは絶対パス）',
          },
        },
        offset: {
          type: 'integer',
          default: 1,
          description: {
            en: 'First line to read (1 = the beginning)',
            zh: '从第几行开始读（1 = 开头）',
            ja: '読み始める行（1 = 先頭）',
          },
        },
        limit: {
          type: 'integer',
          description: { en: 'How many lines to read at most', zh: '最多读取多少行', ja: '読む最大行数' },
        },
      },
      examples: {
        en: ['Show me what is in notes/todo.md', 'Read the README file'],
        zh: ['给我看看 notes/todo.md 里写了什么', '读一下 README 文件'],
        ja: ['notes/todo.md の中身を見せて', 'README ファイルを読んで'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
  }

  execute(params: Params, context: ToolContext): ToolResult {
    const roots = fileRoots(this.config);
    const maxBytes = Number(context.config.max_bytes ?? MAX_BYTES);
    let opened;
    try {
      opened = openConfinedForRead(params.path, roots);
    } catch (error) {
      return refusal(error);
    }
    try {
      const stats = fstatSync(opened.fd);
      if (stats.isDirectory())
        return ToolResult.fail(`${params.path} is a folder; use file_list to see what it holds.`);
      if (!stats.isFile())
        return ToolResult.fail(
          `${params.path} is not a regular file (a device, a pipe or a socket), so it is not read.`,
        );
      const head = readStart(opened.fd, Math.min(stats.size, maxBytes));
      // A picture is returned as one: a model that can see is shown it, the dashboard shows it.
      const image = imageType(head);
      if (image !== undefined && stats.size <= MAX_IMAGE_BYTES) {
        const bytes = stats.size <= head.length ? head : readStart(opened.fd, stats.size);
        return {
          success: true,
          data: `${params.path} is an image (${image}, ${stats.size.toLocaleString('en')} bytes); it is attached.`,
          content: [{ type: 'image', data: bytes, mimeType: image }],
        };
      }
      if (looksBinary(head)) return ToolResult.ok(describeBinary(params.path, stats.size));
      const lines = head.toString('utf8').split('\n');
      const first = Math.max(1, params.offset ?? 1);
      const chosen = lines.slice(
        first - 1,
        params.limit === undefined ? undefined : first - 1 + Math.max(0, params.limit),
      );
      const cut =
        stats.size > maxBytes
          ? `\n…[the file has ${stats.size.toLocaleString('en')} bytes; only the first ${maxBytes.toLocaleString('en')} were read]`
          : '';
      return ToolResult.ok(chosen.join('\n') + cut);
    } finally {
      closeSync(opened.fd);
    }
  }
}
