import type { Language } from '../../core/language.ts';
import { RIVERSE_COMMAND } from '../command-hints.ts';

/** What the chat's own commands (`/help`, `/tools`, `/session`, `/exit`) and its session recap say. */
export interface ChatCommandText {
  /** Each command's line in `/help`. */
  commands: { help: string; tools: string; session: string; exit: string };
  helpTitle: string;
  unknownCommand: (word: string) => string;
  noTools: string;
  available: string;
  unavailable: (reason: string) => string;
  /** Tool files that did not load, and where to see why. */
  notLoaded: (files: number) => string;
  /** A session: new, or how many messages and when the last one came. */
  session: (name: string, messages: number, last: string | undefined) => string;
  /** `/session` on the session the chat is in: it is this one (nothing is resumed). */
  current: (name: string, messages: number, last: string | undefined) => string;
  /** Shown when the chat starts on a session that has a history. */
  resuming: (name: string, messages: number, last: string) => string;
  you: string;
  assistant: string;
}

export const CHAT_COMMAND_TEXT: Record<Language, ChatCommandText> = {
  en: {
    commands: {
      help: 'this list',
      tools: 'the tools: available, or why not',
      session: 'this session; /session NAME switches to another (new or kept)',
      exit: 'end the chat (Ctrl+D too)',
    },
    helpTitle: 'Commands (anything else is sent to the assistant):',
    unknownCommand: (word) => `There is no command /${word}; nothing was sent.`,
    noTools: 'No tools.',
    available: 'available',
    unavailable: (reason) => `unavailable: ${reason}`,
    notLoaded: (files) =>
      `${files} tool file${files === 1 ? '' : 's'} did not load; \`${RIVERSE_COMMAND} tools check\` says why.`,
    session: (name, messages, last) =>
      `Session "${name}": ${last === undefined ? 'new, no messages yet' : `${messages} message${messages === 1 ? '' : 's'}, the last on ${last}`}.`,
    current: (name, messages, last) =>
      `This is session "${name}" (the current one): ${last === undefined ? 'new, no messages yet' : `${messages} message${messages === 1 ? '' : 's'}, the last on ${last}`}.`,
    resuming: (name, messages, last) =>
      `Resuming session "${name}": ${messages} message${messages === 1 ? '' : 's'}, the last on ${last}.`,
    you: 'you',
    assistant: 'riverse',
  },
  zh: {
    commands: {
      help: '显示此列表',
      tools: '列出工具：是否可用，不可用时说明原因',
      session: '当前会话；/session 名称 切换到另一个会话（新的或已保存的）',
      exit: '结束对话（也可按 Ctrl+D）',
    },
    helpTitle: '命令（其他内容都会发送给助理）：',
    unknownCommand: (word) => `没有 /${word} 这个命令；什么也没有发送。`,
    noTools: '没有工具。',
    available: '可用',
    unavailable: (reason) => `不可用：${reason}`,
    notLoaded: (files) => `有 ${files} 个工具文件没有加载成功；原因见 \`${RIVERSE_COMMAND} tools check\`。`,
    session: (name, messages, last) =>
      `会话 "${name}"：${last === undefined ? '新会话，还没有消息' : `${messages} 条消息，最后一条在 ${last}`}。`,
    current: (name, messages, last) =>
      `这就是当前会话 "${name}"：${last === undefined ? '新会话，还没有消息' : `${messages} 条消息，最后一条在 ${last}`}。`,
    resuming: (name, messages, last) => `继续会话 "${name}"：${messages} 条消息，最后一条在 ${last}。`,
    you: '你',
    assistant: 'riverse',
  },
  ja: {
    commands: {
      help: 'この一覧',
      tools: 'ツール一覧：使えるかどうか（使えない理由）',
      session: '今のセッション。/session 名前 で別のセッション（新規または保存済み）に切り替え',
      exit: 'チャットを終える（Ctrl+D でも）',
    },
    helpTitle: 'コマンド（それ以外はアシスタントに送られます）：',
    unknownCommand: (word) => `/${word} というコマンドはありません。何も送信していません。`,
    noTools: 'ツールはありません。',
    available: '使用可能',
    unavailable: (reason) => `使用不可：${reason}`,
    notLoaded: (files) =>
      `${files} 個のツールファイルを読み込めませんでした。理由は \`${RIVERSE_COMMAND} tools check\` で確認できます。`,
    session: (name, messages, last) =>
      `セッション "${name}"：${last === undefined ? '新規（まだメッセージはありません）' : `メッセージ ${messages} 件、最後は ${last}`}。`,
    current: (name, messages, last) =>
      `今のセッション "${name}" です：${last === undefined ? '新規（まだメッセージはありません）' : `メッセージ ${messages} 件、最後は ${last}`}。`,
    resuming: (name, messages, last) =>
      `セッション "${name}" を再開します：メッセージ ${messages} 件、最後は ${last}。`,
    you: 'あなた',
    assistant: 'riverse',
  },
};
