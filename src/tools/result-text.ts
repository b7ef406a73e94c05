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
  'result.content-not-array': () =>
    'returned "content" that is not a list of parts ({ type: "text" | "image" | "audio" | "resource", … })',
  'result.content-too-many': (a: { count: number; max: number }) =>
    `returned ${a.count} parts in "content"; at most ${a.max} are kept (join texts, or return fewer images)`,
  'result.part': (a: { index: number; problem: string }) => `returned "content[${a.index}]" ${a.problem}`,
  'result.part-not-object': () => 'that is not an object',
  'result.part-type': (a: { type: string }) =>
    `of type ${a.type}; a part's type is "text", "image", "audio" or "resource"`,
  'result.part-field': (a: { field: string; want: string }) =>
    `whose "${a.field}" is wrong: ${
      a.want === 'bytes'
        ? 'it must be base64 text or a Uint8Array'
        : a.want === 'uri'
          ? 'it must be a URI such as "file:///tmp/a.txt" or "test://x"'
          : a.want === 'text-or-blob'
            ? 'a resource carries either "text" or "blob" (base64 or a Uint8Array), one of them'
            : a.want.endsWith('/')
              ? `it must be a MIME type starting with "${a.want}" (such as "${a.want}${a.want === 'image/' ? 'png' : 'wav'}")`
              : 'it must be text'
    }`,
  'result.structured': (a: { got: string }) =>
    `returned "structured" as ${a.got}; it must be a JSON value (objects, arrays, text, numbers, true, false, null)`,
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
  'result.content-not-array': () =>
    '返回的 "content" 不是部件列表（{ type: "text" | "image" | "audio" | "resource", … }）',
  'result.content-too-many': (a) =>
    `"content" 中返回了 ${a.count} 个部件；最多保留 ${a.max} 个（请合并文本，或少返回几张图片）`,
  'result.part': (a) => `返回的 "content[${a.index}]" ${a.problem}`,
  'result.part-not-object': () => '不是对象',
  'result.part-type': (a) => `的类型是 ${a.type}；部件类型只能是 "text"、"image"、"audio" 或 "resource"`,
  'result.part-field': (a) =>
    `的 "${a.field}" 有误：${
      a.want === 'bytes'
        ? '必须是 base64 文本或 Uint8Array'
        : a.want === 'uri'
          ? '必须是 URI，例如 "file:///tmp/a.txt" 或 "test://x"'
          : a.want === 'text-or-blob'
            ? '资源只能带 "text" 或 "blob"（base64 或 Uint8Array）之一'
            : a.want.endsWith('/')
              ? `必须是以 "${a.want}" 开头的 MIME 类型（例如 "${a.want}${a.want === 'image/' ? 'png' : 'wav'}"）`
              : '必须是文本'
    }`,
  'result.structured': (a) =>
    `返回的 "structured" 是 ${a.got}；它必须是 JSON 值（对象、数组、文本、数字、true、false、null）`,
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
  'result.content-not-array': () =>
    '"content" をパーツのリスト（{ type: "text" | "image" | "audio" | "resource", … }）以外で返しました',
  'result.content-too-many': (a) =>
    `"content" に ${a.count} 個のパーツを返しました。残せるのは ${a.max} 個までです（テキストをまとめるか、画像を減らしてください）`,
  'result.part': (a) => `"content[${a.index}]" を返しましたが、${a.problem}`,
  'result.part-not-object': () => 'オブジェクトではありません',
  'result.part-type': (a) => `型が ${a.type} です。パーツの型は "text"、"image"、"audio"、"resource" のいずれかです`,
  'result.part-field': (a) =>
    `"${a.field}" が正しくありません：${
      a.want === 'bytes'
        ? 'base64 テキストか Uint8Array にしてください'
        : a.want === 'uri'
          ? '"file:///tmp/a.txt" や "test://x" のような URI にしてください'
          : a.want === 'text-or-blob'
            ? 'リソースには "text" か "blob"（base64 か Uint8Array）のどちらか一方を入れてください'
            : a.want.endsWith('/')
              ? `"${a.want}" で始まる MIME タイプにしてください（例："${a.want}${a.want === 'image/' ? 'png' : 'wav'}"）`
              : 'テキストにしてください'
    }`,
  'result.structured': (a) =>
    `"structured" を ${a.got} として返しました。JSON の値（オブジェクト、配列、テキスト、数値、true、false、null）にしてください`,
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
