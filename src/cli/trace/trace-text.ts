import type { Language } from '../../core/language.ts';

/** What `riverse trace` prints, in each language. */
export interface TraceText {
  /** The first line: the turn, where and when, how long, how it ended. */
  turn: (id: string, session: string, when: string, duration: string, stop: string) => string;
  handRun: (id: string, via: string, when: string, duration: string, stop: string) => string;
  offered: (count: number, names: string, routed: boolean) => string;
  request: (request: number, attempt: number) => string;
  retryDelay: (delay: string) => string;
  firstToken: (ms: string) => string;
  tokens: (input: string, output: string, cached: string | undefined) => string;
  stop: (reason: string) => string;
  failed: (code: string) => string;
  ok: string;
  chars: (count: number) => string;
  isolation: (kind: string) => string;
  /** A call's result part, under its call: `index` from 1, its type (text, image, audio, resource). */
  part: (index: number, type: string) => string;
  /** A part whose bytes the trace did not keep (past its cap): only its type and size. */
  notKept: string;
  waited: (duration: string, decision: string) => string;
  found: (names: string) => string;
  nothingFound: string;
  /** No trace yet (a usage error: nothing to show). */
  none: (dataDir: string) => string;
  notFound: (id: string, dataDir: string) => string;
}

export const TRACE_TEXT: Record<Language, TraceText> = {
  en: {
    turn: (id, session, when, duration, stop) => `turn ${id} · session ${session} · ${when} · ${duration} · ${stop}`,
    handRun: (id, via, when, duration, stop) =>
      `run by hand ${id} · ${via === 'cli' ? 'riverse tools run' : 'the API or the tools page'} · ${when} · ${duration} · ${stop}`,
    offered: (count, names, routed) => `${count} tool(s) offered${routed ? ' (routed)' : ''}: ${names}`,
    request: (request, attempt) =>
      attempt > 1 ? `request ${request}, attempt ${attempt} (retry)` : `request ${request}`,
    retryDelay: (delay) => `after waiting ${delay}`,
    firstToken: (ms) => `first token ${ms}`,
    tokens: (input, output, cached) =>
      `tokens in ${input} · out ${output}${cached === undefined ? '' : ` · cached ${cached}`}`,
    stop: (reason) => `stop: ${reason}`,
    failed: (code) => `failed: ${code}`,
    ok: 'ok',
    chars: (count) => `${count} chars`,
    isolation: (kind) => `isolation ${kind}`,
    part: (index, type) => `part ${index}: ${type}`,
    notKept: 'not kept in the trace',
    waited: (duration, decision) => `waited ${duration} for a person: ${decision}`,
    found: (names) => `found: ${names}`,
    nothingFound: 'found nothing new',
    none: (dataDir) =>
      `no turn has been traced yet in ${dataDir}; have a turn that is kept (npx riverse ask --session try "hello", a chat, or the dashboard; a plain ask keeps nothing) and run this again`,
    notFound: (id, dataDir) =>
      `no trace with the id ${JSON.stringify(id)} in ${dataDir}; give a turn id (or a start of one, 4 characters or more) from GET /api/traces/turns, or "last"`,
  },
  zh: {
    turn: (id, session, when, duration, stop) => `回合 ${id} · 会话 ${session} · ${when} · ${duration} · ${stop}`,
    handRun: (id, via, when, duration, stop) =>
      `手动运行 ${id} · ${via === 'cli' ? 'riverse tools run' : 'API 或工具页面'} · ${when} · ${duration} · ${stop}`,
    offered: (count, names, routed) => `提供了 ${count} 个工具${routed ? '（已路由）' : ''}：${names}`,
    request: (request, attempt) => (attempt > 1 ? `请求 ${request}，第 ${attempt} 次尝试（重试）` : `请求 ${request}`),
    retryDelay: (delay) => `等待 ${delay} 后`,
    firstToken: (ms) => `首个词元 ${ms}`,
    tokens: (input, output, cached) =>
      `词元 输入 ${input} · 输出 ${output}${cached === undefined ? '' : ` · 缓存 ${cached}`}`,
    stop: (reason) => `结束：${reason}`,
    failed: (code) => `失败：${code}`,
    ok: '成功',
    chars: (count) => `${count} 个字符`,
    isolation: (kind) => `隔离 ${kind}`,
    part: (index, type) => `部分 ${index}：${type}`,
    notKept: '追踪中未保存',
    waited: (duration, decision) => `等待用户 ${duration}：${decision}`,
    found: (names) => `找到：${names}`,
    nothingFound: '没有找到新工具',
    none: (dataDir) =>
      `${dataDir} 中还没有任何回合的追踪；先进行一个会被保存的回合（npx riverse ask --session try "你好"、一次对话或仪表盘；不带 --session 的 ask 不保存任何内容），再运行此命令`,
    notFound: (id, dataDir) =>
      `${dataDir} 中没有 id 为 ${JSON.stringify(id)} 的追踪；请给出 GET /api/traces/turns 中的回合 id（或其开头，至少 4 个字符），或 "last"`,
  },
  ja: {
    turn: (id, session, when, duration, stop) =>
      `ターン ${id} · セッション ${session} · ${when} · ${duration} · ${stop}`,
    handRun: (id, via, when, duration, stop) =>
      `手動実行 ${id} · ${via === 'cli' ? 'riverse tools run' : 'API またはツールページ'} · ${when} · ${duration} · ${stop}`,
    offered: (count, names, routed) => `提示したツール ${count} 個${routed ? '（ルーティング済み）' : ''}：${names}`,
    request: (request, attempt) =>
      attempt > 1 ? `リクエスト ${request}、${attempt} 回目の試行（再試行）` : `リクエスト ${request}`,
    retryDelay: (delay) => `${delay} 待ってから`,
    firstToken: (ms) => `最初のトークン ${ms}`,
    tokens: (input, output, cached) =>
      `トークン 入力 ${input} · 出力 ${output}${cached === undefined ? '' : ` · キャッシュ ${cached}`}`,
    stop: (reason) => `終了：${reason}`,
    failed: (code) => `失敗：${code}`,
    ok: '成功',
    chars: (count) => `${count} 文字`,
    isolation: (kind) => `分離 ${kind}`,
    part: (index, type) => `パート ${index}：${type}`,
    notKept: 'トレースには保存されていません',
    waited: (duration, decision) => `人の承認を ${duration} 待機：${decision}`,
    found: (names) => `見つかったツール：${names}`,
    nothingFound: '新しいツールは見つかりませんでした',
    none: (dataDir) =>
      `${dataDir} にはまだトレースされたターンがありません。保存されるターンを実行して（npx riverse ask --session try "こんにちは"、チャット、またはダッシュボード。--session なしの ask は何も保存しません）からもう一度実行してください`,
    notFound: (id, dataDir) =>
      `${dataDir} に id ${JSON.stringify(id)} のトレースはありません。GET /api/traces/turns のターン id（または 4 文字以上の先頭部分）か "last" を指定してください`,
  },
};
