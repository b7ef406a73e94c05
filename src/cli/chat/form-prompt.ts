import { fieldChoices, fitsFormat, type FormField, type FormValue } from '../../tools/ask-form.ts';
import type { Language } from '../../core/language.ts';

/** What the terminal says about a form's field (`context.ask` with fields), in each language. */
const FORM_TEXT: Record<
  Language,
  {
    form: (tool: string, question: string) => string;
    yesNo: string;
    several: string;
    defaultIs: (value: string) => string;
    required: string;
    needed: string;
    number: string;
    whole: string;
    atLeast: (n: number) => string;
    atMost: (n: number) => string;
    pick: string;
    length: (min: number | undefined, max: number | undefined) => string;
    count: (min: number | undefined, max: number | undefined) => string;
    format: Record<'email' | 'uri' | 'date' | 'date-time', string>;
    yes: RegExp;
    no: RegExp;
  }
> = {
  en: {
    form: (tool, question) => `[${tool} asks] ${question}`,
    yesNo: 'y/n',
    several: 'numbers separated by commas',
    defaultIs: (value) => `Enter: ${value}`,
    required: 'required',
    needed: 'This one needs an answer.',
    number: 'Please write a number.',
    whole: 'Please write a whole number.',
    atLeast: (n) => `At least ${n}, please.`,
    atMost: (n) => `At most ${n}, please.`,
    pick: 'Please pick one of the numbers shown.',
    length: (min, max) => `Between ${min ?? 0} and ${max ?? '∞'} characters, please.`,
    count: (min, max) => `Between ${min ?? 0} and ${max ?? 'all'} choices, please.`,
    format: {
      email: 'An email address, please.',
      uri: 'An address such as https://example.com, please.',
      date: 'A date such as 2026-12-31, please.',
      'date-time': 'A date and time such as 2026-12-31T18:00:00Z, please.',
    },
    yes: /^(?:y|yes|true)$/i,
    no: /^(?:n|no|false)$/i,
  },
  zh: {
    form: (tool, question) => `[${tool} 提问] ${question}`,
    yesNo: 'y/n',
    several: '多个编号用逗号分隔',
    defaultIs: (value) => `回车：${value}`,
    required: '必填',
    needed: '这一项需要回答。',
    number: '请输入一个数字。',
    whole: '请输入一个整数。',
    atLeast: (n) => `请输入不小于 ${n} 的数。`,
    atMost: (n) => `请输入不大于 ${n} 的数。`,
    pick: '请从列出的编号中选一个。',
    length: (min, max) => `请输入 ${min ?? 0} 到 ${max ?? '∞'} 个字符。`,
    count: (min, max) => `请选择 ${min ?? 0} 到 ${max ?? '全部'} 项。`,
    format: {
      email: '请输入电子邮件地址。',
      uri: '请输入网址，例如 https://example.com。',
      date: '请输入日期，例如 2026-12-31。',
      'date-time': '请输入日期和时间，例如 2026-12-31T18:00:00Z。',
    },
    yes: /^(?:y|yes|是|好|对)$/i,
    no: /^(?:n|no|否|不)$/i,
  },
  ja: {
    form: (tool, question) => `[${tool} からの質問] ${question}`,
    yesNo: 'y/n',
    several: '番号をカンマ区切りで',
    defaultIs: (value) => `Enter で ${value}`,
    required: '必須',
    needed: 'この項目は回答が必要です。',
    number: '数値を入力してください。',
    whole: '整数を入力してください。',
    atLeast: (n) => `${n} 以上にしてください。`,
    atMost: (n) => `${n} 以下にしてください。`,
    pick: '表示された番号から選んでください。',
    length: (min, max) => `${min ?? 0}〜${max ?? '∞'} 文字で入力してください。`,
    count: (min, max) => `${min ?? 0}〜${max ?? 'すべて'} 個を選んでください。`,
    format: {
      email: 'メールアドレスを入力してください。',
      uri: 'https://example.com のようなアドレスを入力してください。',
      date: '2026-12-31 のような日付を入力してください。',
      'date-time': '2026-12-31T18:00:00Z のような日時を入力してください。',
    },
    yes: /^(?:y|yes|はい)$/i,
    no: /^(?:n|no|いいえ)$/i,
  },
};

/** The form's first line: who asks what. */
export function formHeading(language: Language, tool: string, question: string): string {
  return `${FORM_TEXT[language].form(tool, question)}\n`;
}

/** A field's prompt: its label, what it takes (numbered choices, y/n), its default, whether it is required. */
export function fieldPrompt(language: Language, name: string, field: FormField, required: boolean): string {
  const text = FORM_TEXT[language];
  const choices = fieldChoices(field);
  const lines = [`  ${field.title ?? name}${field.description === undefined ? '' : ` — ${field.description}`}`];
  if (choices !== undefined) lines.push(...choices.map((choice, index) => `    ${index + 1} = ${choice.label}`));
  const hints = [
    ...(field.type === 'boolean' ? [text.yesNo] : []),
    ...(field.type === 'array' ? [text.several] : []),
    ...(field.default === undefined ? [] : [text.defaultIs(shown(field, field.default))]),
    ...(required && field.default === undefined ? [text.required] : []),
  ];
  return `${lines.join('\n')}\n  ${hints.length === 0 ? '' : `(${hints.join(' · ')}) `}> `;
}

/** How a value is shown: a choice by its label. */
function shown(field: FormField, value: FormValue): string {
  const choices = fieldChoices(field);
  const label = (item: string) => choices?.find((choice) => choice.value === item)?.label ?? item;
  if (Array.isArray(value)) return value.map(label).join(', ');
  return typeof value === 'string' ? label(value) : field.type === 'boolean' ? (value ? 'y' : 'n') : String(value);
}

/**
 * A line typed for a field: its value, `empty` (take the default, or leave it out), or what to
 * say to ask again. A choice is its number, its value or its label.
 */
export function readFieldLine(
  language: Language,
  field: FormField,
  line: string,
  required: boolean,
): { value: FormValue } | 'empty' | { again: string } {
  const text = FORM_TEXT[language];
  const typed = field.type === 'string' && fieldChoices(field) === undefined ? line : line.trim();
  if (typed === '') return field.default === undefined && required ? { again: text.needed } : 'empty';
  if (field.type === 'boolean') {
    if (text.yes.test(typed) || /^(?:y|yes)$/i.test(typed)) return { value: true };
    if (text.no.test(typed) || /^(?:n|no)$/i.test(typed)) return { value: false };
    return { again: `${text.yesNo}?` };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const value = Number(typed);
    if (!Number.isFinite(value)) return { again: text.number };
    if (field.type === 'integer' && !Number.isInteger(value)) return { again: text.whole };
    if (field.minimum !== undefined && value < field.minimum) return { again: text.atLeast(field.minimum) };
    if (field.maximum !== undefined && value > field.maximum) return { again: text.atMost(field.maximum) };
    return { value };
  }
  const choices = fieldChoices(field);
  if (choices !== undefined) {
    const pick = (item: string) =>
      choices[Number(item) - 1]?.value ??
      choices.find((choice) => choice.value === item || choice.label.toLowerCase() === item.toLowerCase())?.value;
    if (field.type !== 'array') {
      const value = pick(typed);
      return value === undefined ? { again: text.pick } : { value };
    }
    const picked = typed
      .split(/[,，、\s]+/u)
      .filter((item) => item !== '')
      .map(pick);
    if (picked.some((value) => value === undefined)) return { again: text.pick };
    const value = [...new Set(picked as string[])];
    if (value.length < (field.minItems ?? 0) || value.length > (field.maxItems ?? Number.POSITIVE_INFINITY))
      return { again: text.count(field.minItems, field.maxItems) };
    return { value };
  }
  if (field.type !== 'string' || !('format' in field || 'minLength' in field || 'maxLength' in field))
    return { value: typed };
  if (typed.length < (field.minLength ?? 0) || typed.length > (field.maxLength ?? Number.POSITIVE_INFINITY))
    return { again: text.length(field.minLength, field.maxLength) };
  if (field.format !== undefined && !fitsFormat(typed, field.format)) return { again: text.format[field.format] };
  return { value: typed };
}
