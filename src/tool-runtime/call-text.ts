import type { Language } from '../core/language.ts';

// What a call that went wrong says (execute-tool.ts), in each language. The English text is the
// result's `error`, which a model reads; a person running `tools run` reads it in theirs.

const en = {
  'call.threw': (a: { tool: string; error: string; at?: string }) =>
    `${a.tool} failed: ${a.error}${a.at === undefined ? '' : ` (at ${a.at})`}`,
  'call.invalid-result': (a: { tool: string; why: string }) =>
    `${a.tool} ${a.why}. Expected { success: boolean, data: string, error?: string }; use ToolResult.ok(data) or ToolResult.fail(error).`,
  'call.timeout': (a: { tool: string; limit: string }) => `${a.tool} did not finish within ${a.limit} and was stopped.`,
  'call.cancelled-before': (a: { tool: string }) => `Call to ${a.tool} was cancelled before it started.`,
  'call.cancelled': (a: { tool: string }) => `Call to ${a.tool} was cancelled.`,
  'call.stopped': (a: { tool: string; why: string }) => `${a.tool} was stopped: ${a.why}.`,
};

const zh: typeof en = {
  'call.threw': (a) => `${a.tool} 执行失败：${a.error}${a.at === undefined ? '' : `（位于 ${a.at}）`}`,
  'call.invalid-result': (a) =>
    `${a.tool} ${a.why}。应返回 { success: boolean, data: string, error?: string }；可使用 ToolResult.ok(data) 或 ToolResult.fail(error)。`,
  'call.timeout': (a) => `${a.tool} 未在 ${a.limit} 内完成，已被停止。`,
  'call.cancelled-before': (a) => `对 ${a.tool} 的调用在开始前已取消。`,
  'call.cancelled': (a) => `对 ${a.tool} 的调用已取消。`,
  'call.stopped': (a) => `${a.tool} 已被停止：${a.why}。`,
};

const ja: typeof en = {
  'call.threw': (a) => `${a.tool} が失敗しました：${a.error}${a.at === undefined ? '' : `（場所：${a.at}）`}`,
  'call.invalid-result': (a) =>
    `${a.tool} は ${a.why}。{ success: boolean, data: string, error?: string } を返してください（ToolResult.ok(data) か ToolResult.fail(error) が使えます）。`,
  'call.timeout': (a) => `${a.tool} は ${a.limit} 以内に終わらなかったため停止しました。`,
  'call.cancelled-before': (a) => `${a.tool} の呼び出しは開始前に取り消されました。`,
  'call.cancelled': (a) => `${a.tool} の呼び出しは取り消されました。`,
  'call.stopped': (a) => `${a.tool} は停止されました：${a.why}。`,
};

export const CALL_TEXT: Record<Language, typeof en> = { en, zh, ja };
