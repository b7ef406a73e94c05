import { closeSync, ftruncateSync, fstatSync, writeSync } from 'node:fs';
import { BaseTool, ToolResult, toolSection, type ToolContext, type ToolManifest } from 'riverse';
import { fileRoots, openConfinedForWrite, refusal } from './_roots.ts';

type Params = { path: string; content: string; mode: 'create' | 'overwrite' | 'append' };

/** Most bytes written in one call: `tools.file_write.max_bytes`. */
const MAX_BYTES = 1024 * 1024;

/**
 * Writes a text file inside the allowed folders (`tools.files.roots`). Off by default: it changes
 * files, so it runs only once `tools.file_write.enabled: true` is set. Config:
 * tools.file_write.max_bytes (1048576).
 */
export class FileWriteTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'file_write',
      description: {
        en: 'Write or append text to a file in the workspace folders',
        zh: '在工作区文件夹中写入文件或向文件追加文本',
        ja: 'ワークスペースのフォルダのファイルにテキストを書き込む・追記する',
      },
      parameters: {
        path: {
          type: 'string',
          required: true,
          description: {
            en: 'File path, relative to the workspace or absolute; its folder must exist',
            zh: '文件路径（其所在文件夹必须已存在）',
            ja: 'ファイルのパス（フォルダは既に存在している必要がある）',
          },
        },
        content: {
          type: 'string',
          required: true,
          description: { en: 'The text to write', zh: '要写入的文本', ja: '書き込むテキスト' },
        },
        mode: {
          type: 'string',
          enum: ['create', 'overwrite', 'append'],
          default: 'create',
          description: {
            en: 'create: only a new file; overwrite: replace; append: add at the end',
            zh: 'create：仅新建；overwrite：覆盖；append：追加到末尾',
            ja: 'create：新規のみ、overwrite：上書き、append：末尾に追記',
          },
        },
      },
      examples: {
        en: ['Save this list to notes/shopping.md', 'Append "call the bank" to my todo file'],
        zh: ['把这个清单保存到 notes/shopping.md', '在我的待办文件末尾加上“给银行打电话”'],
        ja: ['このリストを notes/shopping.md に保存して', 'TODO ファイルに「銀行に電話」を追記して'],
      },
      // It changes files: a person says yes to each call (tools.file_write.approval: never lifts it).
      approval: 'always',
      // Off until tools.<name>.enabled: true (the dashboard's switch writes it).
      offByDefault: true,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    };
  }

  override isAvailable(): boolean {
    if (toolSection(this.config, 'file_write').enabled !== true)
      return this.unavailable({
        // The switch first: the dashboard shows this note right beside it.
        en: 'off by default, since it changes files; turn it on with its switch on the dashboard, or set tools.file_write.enabled: true in riverse.yaml',
        zh: '默认关闭，因为它会修改文件；可用仪表盘上的开关开启，或在 riverse.yaml 中设置 tools.file_write.enabled: true',
        ja: 'ファイルを書き換えるため既定ではオフです。ダッシュボードのスイッチでオンにするか、riverse.yaml で tools.file_write.enabled: true にしてください',
      });
    return true;
  }

  execute(params: Params, context: ToolContext): ToolResult {
    const bytes = Buffer.from(params.content, 'utf8');
    const maxBytes = Number(context.config.max_bytes ?? MAX_BYTES);
    if (bytes.length > maxBytes)
      return ToolResult.fail(
        `The content has ${bytes.length.toLocaleString('en')} bytes; at most ${maxBytes.toLocaleString('en')} are written in one call. Write it in parts with mode "append".`,
      );
    let opened;
    try {
      opened = openConfinedForWrite(params.path, fileRoots(this.config));
    } catch (error) {
      return refusal(error);
    }
    try {
      if (!fstatSync(opened.fd).isFile()) return ToolResult.fail(`${params.path} is not a regular file.`);
      if (!opened.created && params.mode === 'create')
        return ToolResult.fail(
          `${params.path} already exists; use mode "overwrite" to replace it or "append" to add to it.`,
        );
      // Cut only now, after the descriptor was checked to be inside a root.
      let position = 0;
      if (params.mode === 'append') position = fstatSync(opened.fd).size;
      else ftruncateSync(opened.fd, 0);
      let written = 0;
      while (written < bytes.length)
        written += writeSync(opened.fd, bytes, written, bytes.length - written, position + written);
      const verb = opened.created ? 'Created' : params.mode === 'append' ? 'Appended to' : 'Overwrote';
      return ToolResult.ok(`${verb} ${opened.real} (${bytes.length.toLocaleString('en')} bytes written).`);
    } finally {
      closeSync(opened.fd);
    }
  }
}
