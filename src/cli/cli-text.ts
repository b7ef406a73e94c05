import type { ToolChangeEvent } from '../tool-runtime/live-registry.ts';
import type { Language } from '../core/language.ts';
import { RIVERSE_COMMAND } from './command-hints.ts';

/** What `riverse chat` (and, for Ctrl-C, `ask` and `tools run`) itself prints, in each language. */
export const CLI_TEXT: Record<
  Language,
  {
    welcome: (model: string, tools: number, session: string) => string;
    prompt: string;
    retrying: string;
    /** A model request failed before any reply and is sent again after `seconds`. */
    modelRetry: (code: string, seconds: number) => string;
    /** Nothing has come from the model for `seconds`. */
    modelWaiting: (seconds: number) => string;
    toolRunning: (tools: string, seconds: number) => string;
    /** Ctrl-C was pressed but the work has not stopped yet. */
    stillStopping: string;
    goodbye: string;
    /** A tool file changed while chatting; `problem`: for `broken`, its first error in one line. */
    toolsChanged: (event: ToolChangeEvent, file: string, tools: string[], problem?: string) => string;
    offerDownload: (file: string, sizeGb: number, directory: string) => string;
  }
> = {
  en: {
    welcome: (model, tools, session) =>
      `Riverse · ${model} · ${tools} tool${tools === 1 ? '' : 's'} · session "${session}"\nType a message; /help lists the commands, /exit quits, Ctrl+C cancels a reply.`,
    prompt: 'you> ',
    retrying: '[the reply was cut off; asking again]',
    modelRetry: (code, seconds) =>
      `[${({ 'rate-limited': 'the model is rate limited', 'server-error': 'the model server failed', timeout: 'the model did not answer in time', network: 'the model cannot be reached', 'stream-cut': 'the reply broke off' } as Record<string, string>)[code] ?? 'the model request failed'}; retrying in ${seconds} s]`,
    modelWaiting: (seconds) => `[waiting for the model: ${seconds} s; Ctrl+C cancels]`,
    toolRunning: (tools, seconds) => `[${tools} still running: ${seconds} s; Ctrl+C cancels]`,
    stillStopping: 'Still stopping; press Ctrl+C again to quit.',
    goodbye: 'Bye.',
    offerDownload: (file, size, directory) =>
      `No model is configured. Download the default local model (${file}, about ${size} GB) into ${directory}? [y/N] `,
    toolsChanged: (event, file, tools, problem) =>
      `↻ ${file} ${{ added: 'added', changed: 'changed', removed: 'removed', broken: tools.length > 0 ? 'is broken; its last good version stays in use' : 'is broken', fixed: 'fixed' }[event]}${tools.length > 0 ? ` (${tools.join(', ')})` : ''}${problem === undefined ? ` — run \`${RIVERSE_COMMAND} tools check\` for details` : `: ${problem}`}`,
  },
  zh: {
    welcome: (model, tools, session) =>
      `Riverse · ${model} · ${tools} 个工具 · 会话 "${session}"\n输入消息；/help 列出命令，/exit 退出，Ctrl+C 取消当前回复。`,
    prompt: '你> ',
    retrying: '[回复中断，正在重新请求]',
    modelRetry: (code, seconds) =>
      `[${({ 'rate-limited': '模型请求过于频繁', 'server-error': '模型服务出错', timeout: '模型未按时响应', network: '无法连接模型', 'stream-cut': '回复中断' } as Record<string, string>)[code] ?? '模型请求失败'}，${seconds} 秒后重试]`,
    modelWaiting: (seconds) => `[正在等待模型：${seconds} 秒；Ctrl+C 取消]`,
    toolRunning: (tools, seconds) => `[${tools} 仍在运行：${seconds} 秒；Ctrl+C 取消]`,
    stillStopping: '仍在停止中；再按一次 Ctrl+C 退出。',
    goodbye: '再见。',
    offerDownload: (file, size, directory) =>
      `尚未配置模型。要下载默认的本地模型（${file}，约 ${size} GB）到 ${directory} 吗？[y/N] `,
    toolsChanged: (event, file, tools, problem) =>
      `↻ ${file} ${{ added: '已添加', changed: '已更新', removed: '已删除', broken: tools.length > 0 ? '有错误，继续使用上一个可用版本' : '有错误', fixed: '已修复' }[event]}${tools.length > 0 ? `（${tools.join('、')}）` : ''}${problem === undefined ? ` — 详情见 \`${RIVERSE_COMMAND} tools check\`` : `：${problem}`}`,
  },
  ja: {
    welcome: (model, tools, session) =>
      `Riverse · ${model} · ツール ${tools} 個 · セッション "${session}"\nメッセージを入力してください。/help でコマンド一覧、/exit で終了、Ctrl+C で応答を取り消します。`,
    prompt: 'あなた> ',
    retrying: '[応答が途切れたため再リクエストしています]',
    modelRetry: (code, seconds) =>
      `[${({ 'rate-limited': 'モデルのレート制限に達しました', 'server-error': 'モデルのサーバーでエラーが起きました', timeout: 'モデルが時間内に応答しませんでした', network: 'モデルに接続できません', 'stream-cut': '応答が途切れました' } as Record<string, string>)[code] ?? 'モデルへのリクエストが失敗しました'}。${seconds} 秒後に再試行します]`,
    modelWaiting: (seconds) => `[モデルの応答を待っています：${seconds} 秒。Ctrl+C で取り消し]`,
    toolRunning: (tools, seconds) => `[${tools} を実行中です：${seconds} 秒。Ctrl+C で取り消し]`,
    stillStopping: 'まだ停止処理中です。もう一度 Ctrl+C を押すと終了します。',
    goodbye: 'さようなら。',
    offerDownload: (file, size, directory) =>
      `モデルが設定されていません。既定のローカルモデル（${file}、約 ${size} GB）を ${directory} にダウンロードしますか？[y/N] `,
    toolsChanged: (event, file, tools, problem) =>
      `↻ ${file} ${{ added: 'を追加しました', changed: 'を更新しました', removed: 'を削除しました', broken: tools.length > 0 ? 'にエラーがあります。最後に動いた版を使い続けます' : 'にエラーがあります', fixed: 'が直りました' }[event]}${tools.length > 0 ? `（${tools.join('、')}）` : ''}${problem === undefined ? ` — 詳細は \`${RIVERSE_COMMAND} tools check\`` : `：${problem}`}`,
  },
};

/** The interface language: --lang, else `language` in the config, else the locale ($LANG). */
export function interfaceLanguage(chosen: string | undefined, env: NodeJS.ProcessEnv = process.env): Language {
  if (chosen === 'en' || chosen === 'zh' || chosen === 'ja') return chosen;
  const locale = (env.LC_ALL || env.LC_MESSAGES || env.LANG || '').toLowerCase();
  return locale.startsWith('zh') ? 'zh' : locale.startsWith('ja') ? 'ja' : 'en';
}
