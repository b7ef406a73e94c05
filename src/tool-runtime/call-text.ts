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
  'call.output-mismatch': (a: { tool: string; why: string }) =>
    `${a.tool} returned a "structured" value that does not match its manifest's output schema: ${a.why}.`,
  'call.output-missing': (a: { tool: string }) =>
    `${a.tool} declares an output schema (its manifest's "output") but returned no "structured" value.`,
};

const zh: typeof en = {
  'call.threw': (a) => `${a.tool} 执行失败：${a.error}${a.at === undefined ? '' : `（位于 ${a.at}）`}`,
  'call.invalid-result': (a) =>
    `${a.tool} ${a.why}。应返回 { success: boolean, data: string, error?: string }；可使用 ToolResult.ok(data) 或 ToolResult.fail(error)。`,
  'call.timeout': (a) => `${a.tool} 未在 ${a.limit} 内完成，已被停止。`,
  'call.cancelled-before': (a) => `对 ${a.tool} 的调用在开始前已取消。`,
  'call.cancelled': (a) => `对 ${a.tool} 的调用已取消。`,
  'call.stopped': (a) => `${a.tool} 已被停止：${a.why}。`,
  'call.output-mismatch': (a) => `${a.tool} 返回的 "structured" 值不符合其清单中的输出模式（output）：${a.why}。`,
  'call.output-missing': (a) => `${a.tool} 声明了输出模式（清单的 "output"），却没有返回 "structured" 值。`,
};

const ja: typeof en = {
  'call.threw': (a) => `${a.tool} が失敗しました：${a.error}${a.at === undefined ? '' : `（場所：${a.at}）`}`,
  'call.invalid-result': (a) =>
    `${a.tool} は ${a.why}。{ success: boolean, data: string, error?: string } を返してください（ToolResult.ok(data) か ToolResult.fail(error) が使えます）。`,
  'call.timeout': (a) => `${a.tool} は ${a.limit} 以内に終わらなかったため停止しました。`,
  'call.cancelled-before': (a) => `${a.tool} の呼び出しは開始前に取り消されました。`,
  'call.cancelled': (a) => `${a.tool} の呼び出しは取り消されました。`,
  'call.stopped': (a) => `${a.tool} は停止されました：${a.why}。`,
  'call.output-mismatch': (a) =>
    `${a.tool} が返した "structured" の値は、マニフェストの出力スキーマ（output）に合いません：${a.why}。`,
  'call.output-missing': (a) =>
    `${a.tool} は出力スキーマ（マニフェストの "output"）を宣言していますが、"structured" の値を返しませんでした。`,
};

export const CALL_TEXT: Record<Language, typeof en> = { en, zh, ja };
