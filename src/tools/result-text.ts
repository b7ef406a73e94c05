import { definePhrases } from '../core/phrase.ts';

// Why a value a tool returned is not a ToolResult (checkToolResult), in each language. A model
// reads the English text; a person running `tools run`, theirs.

const en = {
  'result.not-object': (a: { got: string }) => `returned ${a.got}, not a ToolResult`,
  'result.success': (a: { got: string }) => `returned an object whose "success" is ${a.got}, not true or false`,
  'result.data': (a: { got: string }) =>
    `returned "data" as ${a.got}; "data" must be a string (use JSON.stringify for structured data)`,
  'result.error': (a: { got: string }) => `returned "error" as ${a.got}; "error" must be a string`,
  'result.no-error': () => 'the tool reported failure without an error message',
  // What a value was: `an array`, `null`, `a string ("…")`, `number 3`.
  'result.value': (a: { kind: string; text?: string }) =>
    a.kind === 'undefined'
      ? 'nothing (undefined)'
      : a.kind === 'null'
        ? 'null'
        : a.kind === 'array'
          ? 'an array'
          : a.kind === 'object'
            ? 'an object'
            : a.kind === 'string'
              ? `a string (${a.text})`
              : `${a.kind} ${a.text}`,
};

const zh: typeof en = {
  'result.not-object': (a) => `返回了 ${a.got}，不是 ToolResult`,
  'result.success': (a) => `返回的对象中 "success" 是 ${a.got}，不是 true 或 false`,
  'result.data': (a) => `返回的 "data" 是 ${a.got}；"data" 必须是字符串（结构化数据请用 JSON.stringify）`,
  'result.error': (a) => `返回的 "error" 是 ${a.got}；"error" 必须是字符串`,
  'result.no-error': () => '工具报告失败，但没有给出错误信息',
  'result.value': (a) =>
    a.kind === 'undefined'
      ? '空值（undefined）'
      : a.kind === 'null'
        ? 'null'
        : a.kind === 'array'
          ? '数组'
          : a.kind === 'object'
            ? '对象'
            : a.kind === 'string'
              ? `字符串（${a.text}）`
              : `${a.kind} ${a.text}`,
};

const ja: typeof en = {
  'result.not-object': (a) => `${a.got} を返しました。ToolResult ではありません`,
  'result.success': (a) => `返したオブジェクトの "success" が ${a.got} です。true か false にしてください`,
  'result.data': (a) =>
    `"data" を ${a.got} として返しました。"data" は文字列にしてください（構造化データは JSON.stringify で）`,
  'result.error': (a) => `"error" を ${a.got} として返しました。"error" は文字列にしてください`,
  'result.no-error': () => 'ツールは失敗を報告しましたが、エラーメッセージがありません',
  'result.value': (a) =>
    a.kind === 'undefined'
      ? '何も（undefined）'
      : a.kind === 'null'
        ? 'null'
        : a.kind === 'array'
          ? '配列'
          : a.kind === 'object'
            ? 'オブジェクト'
            : a.kind === 'string'
              ? `文字列（${a.text}）`
              : `${a.kind} ${a.text}`,
};

/** The phrases of checkToolResult. */
export const resultPhrase = definePhrases({ en, zh, ja });
