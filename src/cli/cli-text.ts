import type { Language } from '../tools/tool-manifest.ts';

/** What `riverse chat` itself prints, in each language. */
export const CLI_TEXT: Record<Language, {
  welcome: (model: string, tools: number, session: string) => string;
  prompt: string;
  retrying: string;
  goodbye: string;
}> = {
  en: {
    welcome: (model, tools, session) => `Riverse · ${model} · ${tools} tool${tools === 1 ? '' : 's'} · session "${session}"\nType a message; /exit quits, Ctrl+C cancels a reply.`,
    prompt: 'you> ',
    retrying: '[the reply was cut off; asking again]',
    goodbye: 'Bye.',
  },
  zh: {
    welcome: (model, tools, session) => `Riverse · ${model} · ${tools} 个工具 · 会话 "${session}"\n输入消息；/exit 退出，Ctrl+C 取消当前回复。`,
    prompt: '你> ',
    retrying: '[回复中断，正在重新请求]',
    goodbye: '再见。',
  },
  ja: {
    welcome: (model, tools, session) => `Riverse · ${model} · ツール ${tools} 個 · セッション "${session}"\nメッセージを入力してください。/exit で終了、Ctrl+C で応答を取り消します。`,
    prompt: 'あなた> ',
    retrying: '[応答が途切れたため再リクエストしています]',
    goodbye: 'さようなら。',
  },
};

/** The interface language: --lang, else `language` in the config, else the locale ($LANG). */
export function interfaceLanguage(chosen: string | undefined, env: NodeJS.ProcessEnv = process.env): Language {
  if (chosen === 'en' || chosen === 'zh' || chosen === 'ja') return chosen;
  const locale = (env.LC_ALL || env.LC_MESSAGES || env.LANG || '').toLowerCase();
  return locale.startsWith('zh') ? 'zh' : locale.startsWith('ja') ? 'ja' : 'en';
}
