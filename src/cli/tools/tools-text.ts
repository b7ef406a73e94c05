import type { ToolChangeEvent } from '../../tool-runtime/live-registry.ts';
import type { Language } from '../../core/language.ts';
import { RIVERSE_COMMAND } from '../command-hints.ts';

/** What the `riverse tools` commands themselves print (diagnostics are phrases: src/core/phrase.ts). */
export interface ToolsText {
  /** Before an error on stderr. */
  error: string;
  noTools: (folders: string) => string;
  /** No tool loaded, and `files` tool files failed to: said before anything else. */
  noneLoaded: (folders: string, files: number) => string;
  columns: [name: string, source: string, status: string];
  available: string;
  unavailable: (reason: string) => string;
  keptFromLoading: (problems: number) => string;
  runCheck: string;
  /** `tools show` field labels, padded so that the values line up. */
  fields: { source: string; status: string; signature: string; timeout: string; parameters: string; examples: string };
  none: string;
  schemaTitle: string;
  toolFailed: string;
  /** The run happened, but its trace could not be kept (`riverse trace` will not show it). */
  runNotTraced: (detail: string) => string;
  paramsNotJson: (detail: string) => string;
  paramsNotObject: string;
  notAParameter: (word: string) => string;
  notShown: string;
  /** A line for a part of a result that is not text: `kind` image, audio or resource; `size` "3.9 kB". */
  part: (kind: 'image' | 'audio' | 'resource', what: string, size: string) => string;
  /** A progress report as it comes (on stderr). */
  progress: (progress: number, total: number | undefined, message: string | undefined) => string;
  /** A log line of the call as it comes (on stderr); `level` is MCP's. */
  logLine: (level: string, message: string) => string;
  checked: (folders: string, available: number, unavailable: number, errors: number, warnings: number) => string;
  /** After the summary, when there were TypeScript tool files and no TypeScript to check them. */
  typesNotChecked: string;
  /** After the summary: the tools whose calls run as tasks; `tools` is "name (optional), name (required, asks first: key)". */
  longRunning: (tools: string) => string;
  /** One tool of `longRunning`'s list. */
  longRunningTool: (name: string, mode: 'optional' | 'required', asksFirst: readonly string[]) => string;
  watching: (folders: string) => string;
  events: Record<ToolChangeEvent, string>;
  keepsLastGood: string;
  invalidName: (name: string) => string;
  exists: (file: string) => string;
  created: (toolFile: string, testFile: string) => string;
  next: { title: string; tryIt: string; runTest: string; checkAll: string };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export const TOOLS_TEXT: Record<Language, ToolsText> = {
  en: {
    error: 'error: ',
    noTools: (folders) => `No tools found in ${folders}. Create one with: ${RIVERSE_COMMAND} tools new my_tool`,
    noneLoaded: (folders, files) =>
      `No tools loaded from ${folders}: ${files === 1 ? '1 tool file' : `${files} tool files`} could not be loaded:`,
    columns: ['NAME', 'SOURCE', 'STATUS'],
    available: 'available',
    unavailable: (reason) => `unavailable: ${reason}`,
    keptFromLoading: (problems) => `${plural(problems, 'problem')} kept tools from loading:`,
    runCheck: `Run \`${RIVERSE_COMMAND} tools check\` for every diagnostic.`,
    fields: {
      source: 'source:    ',
      status: 'status:    ',
      signature: 'signature: ',
      timeout: 'timeout:   ',
      parameters: 'parameters:',
      examples: 'examples:',
    },
    none: ' none',
    schemaTitle: 'JSON Schema given to models:',
    toolFailed: 'the tool failed',
    runNotTraced: (detail) => `note: this run is not traced (the data folder could not be written: ${detail})`,
    paramsNotJson: (detail) => `--params is not valid JSON: ${detail}. Example: --params '{"city": "Tokyo"}'`,
    paramsNotObject: '--params must be a JSON object, e.g. \'{"city": "Tokyo"}\'',
    notAParameter: (word) => `"${word}" is not a parameter: write key=value, e.g. city=Tokyo`,
    notShown: '(not shown: too large or too deeply nested)',
    part: (kind, what, size) => `[${kind}: ${what}, ${size}]`,
    progress: (progress, total, message) =>
      `progress: ${total === undefined ? progress : `${progress}/${total} (${Math.round((progress / total) * 100)}%)`}${message === undefined ? '' : ` ${message}`}`,
    logLine: (level, message) => `log ${level}: ${message}`,
    checked: (folders, available, unavailable, errors, warnings) =>
      `Checked ${folders}: ${plural(available, 'tool')} available, ${unavailable} unavailable; ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`,
    typesNotChecked:
      'Types were not checked: TypeScript is not installed here. To check them: npm install --save-dev typescript (--no-types skips this line).',
    longRunning: (tools) => `Run as tasks (long_running): ${tools}.`,
    longRunningTool: (name, mode, asksFirst) =>
      `${name} (${mode}${asksFirst.length === 0 ? '' : `, asks first: ${asksFirst.join(', ')}`})`,
    watching: (folders) => `Watching ${folders} — Ctrl+C to stop.`,
    events: { added: 'added', changed: 'changed', removed: 'removed', broken: 'broken', fixed: 'fixed' },
    keepsLastGood: ' (its last good version stays in use)',
    invalidName: (name) =>
      `"${name}" is not a valid tool name: use 1–64 letters, digits, "_" or "-", starting with a letter or "_", e.g. my_tool`,
    exists: (file) => `${file} already exists; choose another name or delete it first`,
    created: (toolFile, testFile) => `Created ${toolFile} and ${testFile}.`,
    next: { title: 'Next:', tryIt: 'try it', runTest: 'run its test', checkAll: 'check every tool' },
  },
  zh: {
    error: '错误：',
    noTools: (folders) => `在 ${folders} 中没有找到工具。新建一个：${RIVERSE_COMMAND} tools new my_tool`,
    noneLoaded: (folders, files) => `${folders} 中没有加载到任何工具：有 ${files} 个工具文件无法加载：`,
    columns: ['名称', '源文件', '状态'],
    available: '可用',
    unavailable: (reason) => `不可用：${reason}`,
    keptFromLoading: (problems) => `有 ${problems} 个问题导致工具无法加载：`,
    runCheck: `运行 \`${RIVERSE_COMMAND} tools check\` 查看全部诊断。`,
    fields: {
      source: '源文件：',
      status: '状态：  ',
      signature: '签名：  ',
      timeout: '超时：  ',
      parameters: '参数：',
      examples: '示例：',
    },
    none: '无',
    schemaTitle: '提供给模型的 JSON Schema：',
    toolFailed: '工具执行失败',
    runNotTraced: (detail) => `注意：此次运行未被追踪（无法写入数据文件夹：${detail}）`,
    paramsNotJson: (detail) => `--params 不是有效的 JSON：${detail}。示例：--params '{"city": "Tokyo"}'`,
    paramsNotObject: '--params 必须是 JSON 对象，例如 \'{"city": "Tokyo"}\'',
    notAParameter: (word) => `"${word}" 不是参数：请写成 key=value，例如 city=Tokyo`,
    notShown: '（未显示：过大或嵌套过深）',
    part: (kind, what, size) => `[${{ image: '图片', audio: '音频', resource: '资源' }[kind]}：${what}，${size}]`,
    progress: (progress, total, message) =>
      `进度：${total === undefined ? progress : `${progress}/${total}（${Math.round((progress / total) * 100)}%）`}${message === undefined ? '' : ` ${message}`}`,
    logLine: (level, message) => `日志 ${level}：${message}`,
    checked: (folders, available, unavailable, errors, warnings) =>
      `已检查 ${folders}：${available} 个工具可用，${unavailable} 个不可用；${errors} 个错误，${warnings} 个警告。`,
    typesNotChecked:
      '没有做类型检查：这里没有安装 TypeScript。要检查类型：npm install --save-dev typescript（用 --no-types 不再显示这一行）。',
    longRunning: (tools) => `作为任务运行（long_running）：${tools}。`,
    longRunningTool: (name, mode, asksFirst) =>
      `${name}（${mode}${asksFirst.length === 0 ? '' : `，先问：${asksFirst.join('、')}`}）`,
    watching: (folders) => `正在监视 ${folders} — 按 Ctrl+C 停止。`,
    events: { added: '已添加', changed: '已更新', removed: '已删除', broken: '有错误', fixed: '已修复' },
    keepsLastGood: '（继续使用上一个可用版本）',
    invalidName: (name) =>
      `"${name}" 不是有效的工具名：请用 1–64 个字母、数字、"_" 或 "-"，并以字母或 "_" 开头，例如 my_tool`,
    exists: (file) => `${file} 已存在；请换一个名称，或先删除它`,
    created: (toolFile, testFile) => `已创建 ${toolFile} 和 ${testFile}。`,
    next: { title: '下一步：', tryIt: '试运行', runTest: '运行它的测试', checkAll: '检查所有工具' },
  },
  ja: {
    error: 'エラー：',
    noTools: (folders) => `${folders} にツールが見つかりません。新しく作るには：${RIVERSE_COMMAND} tools new my_tool`,
    noneLoaded: (folders, files) =>
      `${folders} からツールを 1 つも読み込めませんでした。読み込めなかったツールファイルが ${files} 個あります：`,
    columns: ['名前', 'ソース', '状態'],
    available: '使用可能',
    unavailable: (reason) => `使用不可：${reason}`,
    keptFromLoading: (problems) => `${problems} 件の問題でツールを読み込めませんでした：`,
    runCheck: `すべての診断は \`${RIVERSE_COMMAND} tools check\` で確認できます。`,
    fields: {
      source: 'ソース：    ',
      status: '状態：      ',
      signature: 'シグネチャ：',
      timeout: 'タイムアウト：',
      parameters: 'パラメーター：',
      examples: '例：',
    },
    none: 'なし',
    schemaTitle: 'モデルに渡す JSON Schema：',
    toolFailed: 'ツールが失敗しました',
    runNotTraced: (detail) =>
      `注意：この実行はトレースされていません（データフォルダーに書き込めませんでした：${detail}）`,
    paramsNotJson: (detail) => `--params が正しい JSON ではありません：${detail}。例：--params '{"city": "Tokyo"}'`,
    paramsNotObject: '--params は JSON オブジェクトにしてください。例：\'{"city": "Tokyo"}\'',
    notAParameter: (word) => `"${word}" はパラメーターではありません。key=value の形で書いてください。例：city=Tokyo`,
    notShown: '（表示しません：大きすぎるか、入れ子が深すぎます）',
    part: (kind, what, size) => `[${{ image: '画像', audio: '音声', resource: 'リソース' }[kind]}：${what}、${size}]`,
    progress: (progress, total, message) =>
      `進捗：${total === undefined ? progress : `${progress}/${total}（${Math.round((progress / total) * 100)}%）`}${message === undefined ? '' : ` ${message}`}`,
    logLine: (level, message) => `ログ ${level}：${message}`,
    checked: (folders, available, unavailable, errors, warnings) =>
      `${folders} をチェックしました：使用可能なツール ${available} 個、使用不可 ${unavailable} 個。エラー ${errors} 件、警告 ${warnings} 件。`,
    typesNotChecked:
      '型はチェックしていません：TypeScript がインストールされていません。チェックするには：npm install --save-dev typescript（--no-types でこの行は出ません）。',
    longRunning: (tools) => `タスクとして動くツール（long_running）：${tools}。`,
    longRunningTool: (name, mode, asksFirst) =>
      `${name}（${mode}${asksFirst.length === 0 ? '' : `、先に尋ねる：${asksFirst.join('、')}`}）`,
    watching: (folders) => `${folders} を監視しています — Ctrl+C で終了します。`,
    events: { added: '追加', changed: '更新', removed: '削除', broken: 'エラー', fixed: '修正' },
    keepsLastGood: '（最後に動いた版を使い続けます）',
    invalidName: (name) =>
      `"${name}" はツール名に使えません。英字か "_" で始まる、英数字・"_"・"-" の 1〜64 文字にしてください。例：my_tool`,
    exists: (file) => `${file} はすでにあります。別の名前にするか、先に削除してください`,
    created: (toolFile, testFile) => `${toolFile} と ${testFile} を作りました。`,
    next: {
      title: '次に：',
      tryIt: '試しに実行する',
      runTest: 'テストを実行する',
      checkAll: 'すべてのツールをチェックする',
    },
  },
};
