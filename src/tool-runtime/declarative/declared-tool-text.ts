import type { Language } from '../../core/language.ts';

// What a declared tool (*.tools.yaml) says when a call fails, in the person's language: the
// dashboard and `tools run` show it as it is, and the model reads it.

interface DeclaredToolText {
  cannotRun: (tool: string, setting: string) => string;
  headerBreak: (header: string) => string;
  http: (host: string, status: string, detail: string) => string;
  notJson: (host: string, cut: boolean, path: string) => string;
  nothingAt: (host: string, path: string) => string;
  nul: () => string;
  dash: (value: string, program: string) => string;
  notFound: (program: string, path: string, tool: string) => string;
  stopped: (program: string) => string;
  exited: (program: string, code: number | undefined, message: string, detail: string) => string;
}

const said = (detail: string, colon: string) => (detail === '' ? '' : `${colon}${detail}`);

export const DECLARED_TOOL_TEXT: Record<Language, DeclaredToolText> = {
  en: {
    cannotRun: (tool, setting) => `${tool} cannot run yet: set ${setting} in riverse.yaml.`,
    headerBreak: (header) => `The value for the ${header} header contains a line break, which a header cannot hold.`,
    http: (host, status, detail) => `${host} answered HTTP ${status}${said(detail, ': ')}`,
    notJson: (host, cut, path) =>
      `${host} sent an answer that is not JSON${cut ? ' (it was cut at max_bytes)' : ''}, so ${path} cannot be read from it.`,
    nothingAt: (host, path) => `The answer of ${host} has nothing at ${path}.`,
    nul: () => 'A value contains a NUL character, which a command argument cannot hold.',
    dash: (value, program) =>
      `The value ${value} starts with "-", which ${program} would read as an option; give a value that does not.`,
    notFound: (program, path, tool) => `${program} was not found on ${path}; install it or set tools.${tool}.path.`,
    stopped: (program) => `${program} was stopped.`,
    exited: (program, code, message, detail) =>
      `${program} exited with ${code === undefined ? message : `code ${code}`}${said(detail, ': ')}`,
  },
  zh: {
    cannotRun: (tool, setting) => `${tool} 还不能运行：请在 riverse.yaml 中设置 ${setting}。`,
    headerBreak: (header) => `${header} 请求头的值含有换行，请求头不能包含换行。`,
    http: (host, status, detail) => `${host} 返回了 HTTP ${status}${said(detail, '：')}`,
    notJson: (host, cut, path) =>
      `${host} 返回的内容不是 JSON${cut ? '（在 max_bytes 处被截断）' : ''}，无法从中读取 ${path}。`,
    nothingAt: (host, path) => `${host} 的回应中 ${path} 处没有内容。`,
    nul: () => '有一个值含有 NUL 字符，命令参数不能包含它。',
    dash: (value, program) => `值 ${value} 以 "-" 开头，${program} 会把它当作选项；请给出不以 "-" 开头的值。`,
    notFound: (program, path, tool) => `在 ${path} 中找不到 ${program}；请安装它，或设置 tools.${tool}.path。`,
    stopped: (program) => `${program} 已被停止。`,
    exited: (program, code, message, detail) =>
      `${program} 退出：${code === undefined ? message : `退出码 ${code}`}${said(detail, '：')}`,
  },
  ja: {
    cannotRun: (tool, setting) => `${tool} はまだ実行できません：riverse.yaml で ${setting} を設定してください。`,
    headerBreak: (header) => `${header} ヘッダーの値に改行が含まれています。ヘッダーには改行を入れられません。`,
    http: (host, status, detail) => `${host} が HTTP ${status} を返しました${said(detail, '：')}`,
    notJson: (host, cut, path) =>
      `${host} の応答が JSON ではない${cut ? '（max_bytes で切られました）' : ''}ため、${path} を読み取れません。`,
    nothingAt: (host, path) => `${host} の応答の ${path} には何もありません。`,
    nul: () => '値に NUL 文字が含まれています。コマンドの引数には入れられません。',
    dash: (value, program) =>
      `値 ${value} は "-" で始まるため、${program} がオプションとして読んでしまいます。"-" で始まらない値を指定してください。`,
    notFound: (program, path, tool) =>
      `${path} に ${program} が見つかりません。インストールするか、tools.${tool}.path を設定してください。`,
    stopped: (program) => `${program} は停止されました。`,
    exited: (program, code, message, detail) =>
      `${program} が終了しました（${code === undefined ? message : `終了コード ${code}`}）${said(detail, '：')}`,
  },
};
