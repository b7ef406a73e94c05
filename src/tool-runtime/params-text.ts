import type { Language } from '../core/language.ts';

// What the argument check (check-params.ts) says of a call it refuses, in each language. A model
// reads it in English; a person running `tools run`, in theirs.

const en = {
  'params.invalid': (a: { tool: string }) => `Invalid parameters for ${a.tool}:`,
  'params.expected': (a: { signature: string }) => `Expected: ${a.signature}`,
  'params.not-object': (a: { got: string }) => `parameters must be a JSON object, got ${a.got}`,
  'params.missing': (a: { name: string }) => `missing required parameter "${a.name}"`,
  'params.missing-field': (a: { name: string; path: string }) => `missing required field "${a.name}" in "${a.path}"`,
  'params.unknown': (a: { name: string; near?: string }) =>
    `unknown parameter "${a.name}"${a.near === undefined ? '' : ` (did you mean "${a.near}"?)`}; remove it`,
  'params.unknown-field': (a: { name: string; path: string }) => `unknown field "${a.name}" in "${a.path}"; remove it`,
  'params.wrong-type': (a: { path: string; type: string; got: string }) =>
    `"${a.path}" must be ${/^[aeiou]/.test(a.type) ? 'an' : 'a'} ${a.type}, got ${a.got}`,
  'params.not-in-enum': (a: { path: string; values: string; got: string }) =>
    `"${a.path}" must be one of ${a.values}, got ${a.got}`,
  // What a value was: `an array`, `null`, `an object`, or its type and JSON (`string "x"`).
  'params.value': (a: { kind: string; json?: string }) =>
    a.kind === 'array'
      ? 'an array'
      : a.kind === 'object'
        ? 'an object'
        : a.kind === 'null'
          ? 'null'
          : `${a.kind} ${a.json}`,
};

const zh: typeof en = {
  'params.invalid': (a) => `${a.tool} 的参数无效：`,
  'params.expected': (a) => `应为：${a.signature}`,
  'params.not-object': (a) => `参数必须是 JSON 对象，实际是 ${a.got}`,
  'params.missing': (a) => `缺少必需的参数 "${a.name}"`,
  'params.missing-field': (a) => `"${a.path}" 中缺少必需的字段 "${a.name}"`,
  'params.unknown': (a) => `未知参数 "${a.name}"${a.near === undefined ? '' : `（是不是 "${a.near}"？）`}；请删除它`,
  'params.unknown-field': (a) => `"${a.path}" 中有未知字段 "${a.name}"；请删除它`,
  'params.wrong-type': (a) => `"${a.path}" 必须是 ${a.type}，实际是 ${a.got}`,
  'params.not-in-enum': (a) => `"${a.path}" 必须是 ${a.values} 之一，实际是 ${a.got}`,
  'params.value': (a) =>
    a.kind === 'array' ? '数组' : a.kind === 'object' ? '对象' : a.kind === 'null' ? 'null' : `${a.kind} ${a.json}`,
};

const ja: typeof en = {
  'params.invalid': (a) => `${a.tool} のパラメーターが正しくありません：`,
  'params.expected': (a) => `正しい形：${a.signature}`,
  'params.not-object': (a) => `パラメーターは JSON オブジェクトでなければなりませんが、${a.got} です`,
  'params.missing': (a) => `必須のパラメーター "${a.name}" がありません`,
  'params.missing-field': (a) => `"${a.path}" に必須のフィールド "${a.name}" がありません`,
  'params.unknown': (a) =>
    `不明なパラメーター "${a.name}"${a.near === undefined ? '' : `（"${a.near}" のことですか？）`}。削除してください`,
  'params.unknown-field': (a) => `"${a.path}" に不明なフィールド "${a.name}" があります。削除してください`,
  'params.wrong-type': (a) => `"${a.path}" は ${a.type} でなければなりませんが、${a.got} です`,
  'params.not-in-enum': (a) => `"${a.path}" は ${a.values} のいずれかでなければなりませんが、${a.got} です`,
  'params.value': (a) =>
    a.kind === 'array'
      ? '配列'
      : a.kind === 'object'
        ? 'オブジェクト'
        : a.kind === 'null'
          ? 'null'
          : `${a.kind} ${a.json}`,
};

export const PARAMS_TEXT: Record<Language, typeof en> = { en, zh, ja };
