// A form-shaped `context.ask`: its fields are MCP's restricted elicitation schemas (the primitive
// schema definitions of `requestedSchema`), word for word, so that a form crosses to an MCP client
// unchanged and every channel reads one shape (decision 036).

/** What every field may have: its label and a line under it. */
export interface FieldText {
  /** The field's label (its name when absent). */
  title?: string;
  /** A line under the label: what to write, in the person's words. */
  description?: string;
}

/** A line of text; `format` as MCP names them. */
export interface TextField extends FieldText {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
}

/** A number (`integer`: a whole one). */
export interface NumberField extends FieldText {
  type: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanField extends FieldText {
  type: 'boolean';
  default?: boolean;
}

/** One of a list: `enum` (with `enumNames`, MCP's older labels) or `oneOf` with a title for each value. */
export type ChoiceField = FieldText & { type: 'string'; default?: string } & (
    | { enum: string[]; enumNames?: string[] }
    | { oneOf: Array<{ const: string; title: string }> }
  );

/** Several of a list: `items.enum`, or `items.anyOf` with a title for each value. */
export type MultiChoiceField = FieldText & {
  type: 'array';
  minItems?: number;
  maxItems?: number;
  default?: string[];
} & ({ items: { type: 'string'; enum: string[] } } | { items: { anyOf: Array<{ const: string; title: string }> } });

export type FormField = TextField | NumberField | BooleanField | ChoiceField | MultiChoiceField;
/** A form's fields by name, in the order they are shown. */
export type AskFields = Record<string, FormField>;
export type FormValue = string | number | boolean | string[];
/** A form's answer: each field's value by name (a field left empty and optional is absent). */
export type FormValues = Record<string, FormValue>;

const MAX_FIELDS = 20;
const MAX_OPTIONS = 50;
const MAX_LABEL_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 1_000;
const MAX_TEXT_CHARS = 10_000;
const FIELD_NAME = /^[A-Za-z_][\w-]{0,63}$/;
const FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

/** The values a field offers with their labels, or undefined for a field of free input. */
export function fieldChoices(field: FormField): Array<{ value: string; label: string }> | undefined {
  const list = field.type === 'array' ? field.items : field;
  if ('oneOf' in list) return list.oneOf.map((option) => ({ value: option.const, label: option.title }));
  if ('anyOf' in list) return list.anyOf.map((option) => ({ value: option.const, label: option.title }));
  if ('enum' in list) {
    const names = (list as { enumNames?: string[] }).enumNames;
    return list.enum.map((value, index) => ({ value, label: names?.[index] ?? value }));
  }
  return undefined;
}

/** A form's fields and required names as `context.ask` may take them, or what is wrong with them. */
export function checkFields(fields: unknown, required: unknown): { fields: AskFields; required?: string[] } | string {
  if (!isRecord(fields) || Object.keys(fields).length === 0 || Object.keys(fields).length > MAX_FIELDS)
    return `context.ask() fields must be an object of 1 to ${MAX_FIELDS} fields by name`;
  const checked: AskFields = {};
  for (const [name, field] of Object.entries(fields)) {
    if (!FIELD_NAME.test(name))
      return `context.ask() field name "${name.slice(0, 80)}" must be a letter or _ then up to 63 letters, digits, _ or -`;
    const problem = checkField(field);
    if (problem !== undefined) return `context.ask() field "${name}": ${problem}`;
    try {
      checked[name] = structuredClone(field) as FormField;
    } catch {
      return `context.ask() field "${name}" must be plain data (no functions or class instances)`;
    }
  }
  if (required === undefined) return { fields: checked };
  if (
    !Array.isArray(required) ||
    new Set(required).size !== required.length ||
    !required.every((name) => typeof name === 'string' && Object.hasOwn(checked, name))
  )
    return `context.ask() required must list names of its fields, each once (the fields are ${Object.keys(checked).join(', ')})`;
  return { fields: checked, required: [...(required as string[])] };
}

/** What is wrong with one field's schema, or undefined when MCP's restricted schemas allow it. */
function checkField(field: unknown): string | undefined {
  if (!isRecord(field)) return 'must be an object such as { type: "string" }';
  const { type } = field;
  const text = checkText(field);
  if (text !== undefined) return text;
  if (type === 'boolean') {
    return (
      unknownKeys(field, ['default']) ??
      (field.default === undefined || typeof field.default === 'boolean' ? undefined : 'default must be true or false')
    );
  }
  if (type === 'number' || type === 'integer') {
    const extra = unknownKeys(field, ['minimum', 'maximum', 'default']);
    if (extra !== undefined) return extra;
    for (const key of ['minimum', 'maximum'] as const)
      if (field[key] !== undefined && !(typeof field[key] === 'number' && Number.isFinite(field[key])))
        return `${key} must be a number`;
    if ((field.minimum as number) > (field.maximum as number)) return 'minimum must not be above maximum';
    return field.default === undefined
      ? undefined
      : valueProblem(field as unknown as FormField, field.default, 'default');
  }
  if (type === 'string') {
    if ('enum' in field || 'oneOf' in field) {
      const extra = unknownKeys(field, ['enum', 'enumNames', 'oneOf', 'default']);
      if (extra !== undefined) return extra;
      if ('enum' in field && 'oneOf' in field) return 'takes enum or oneOf, not both';
      const problem = 'enum' in field ? checkEnum(field.enum, field.enumNames) : checkTitled(field.oneOf, 'oneOf');
      if (problem !== undefined) return problem;
      if ('enumNames' in field && !('enum' in field)) return 'enumNames goes with enum';
    } else {
      const extra = unknownKeys(field, ['minLength', 'maxLength', 'format', 'default']);
      if (extra !== undefined) return extra;
      for (const key of ['minLength', 'maxLength'] as const)
        if (field[key] !== undefined && !(Number.isInteger(field[key]) && (field[key] as number) >= 0))
          return `${key} must be a whole number from 0`;
      if ((field.minLength as number) > (field.maxLength as number)) return 'minLength must not be above maxLength';
      if (field.format !== undefined && !(FORMATS as readonly unknown[]).includes(field.format))
        return `format must be one of ${FORMATS.join(', ')}`;
    }
    return field.default === undefined
      ? undefined
      : valueProblem(field as unknown as FormField, field.default, 'default');
  }
  if (type === 'array') {
    const extra = unknownKeys(field, ['items', 'minItems', 'maxItems', 'default']);
    if (extra !== undefined) return extra;
    const { items } = field;
    if (!isRecord(items) || !(items.type === 'string' ? 'enum' in items : 'anyOf' in items))
      return 'items must be { type: "string", enum: [...] } or { anyOf: [{ const, title }, ...] }';
    const problem =
      items.type === 'string'
        ? (unknownKeys(items, ['enum']) ?? checkEnum(items.enum, undefined))
        : (unknownKeys(items, ['anyOf'], []) ?? checkTitled(items.anyOf, 'items.anyOf'));
    if (problem !== undefined) return problem;
    for (const key of ['minItems', 'maxItems'] as const)
      if (field[key] !== undefined && !(Number.isInteger(field[key]) && (field[key] as number) >= 0))
        return `${key} must be a whole number from 0`;
    if ((field.minItems as number) > (field.maxItems as number)) return 'minItems must not be above maxItems';
    return field.default === undefined
      ? undefined
      : valueProblem(field as unknown as FormField, field.default, 'default');
  }
  return 'type must be "string", "number", "integer", "boolean" or "array" (of choices)';
}

function checkText(field: Record<string, unknown>): string | undefined {
  if (field.title !== undefined && !(typeof field.title === 'string' && field.title.length <= MAX_LABEL_CHARS))
    return `title must be text of at most ${MAX_LABEL_CHARS} characters`;
  if (
    field.description !== undefined &&
    !(typeof field.description === 'string' && field.description.length <= MAX_DESCRIPTION_CHARS)
  )
    return `description must be text of at most ${MAX_DESCRIPTION_CHARS} characters`;
  return undefined;
}

function unknownKeys(
  field: Record<string, unknown>,
  allowed: readonly string[],
  common: readonly string[] = ['type', 'title', 'description'],
): string | undefined {
  const extra = Object.keys(field).filter((key) => !allowed.includes(key) && !common.includes(key));
  return extra.length === 0
    ? undefined
    : `${extra.join(', ')} ${extra.length === 1 ? 'is' : 'are'} not part of this kind of field (it takes ${[...common, ...allowed].join(', ')})`;
}

function checkEnum(values: unknown, names: unknown): string | undefined {
  if (!options(values))
    return `enum must be 1 to ${MAX_OPTIONS} different non-empty texts of at most ${MAX_LABEL_CHARS} characters`;
  if (
    names !== undefined &&
    !(
      Array.isArray(names) &&
      names.length === values.length &&
      names.every((name) => typeof name === 'string' && name.length <= MAX_LABEL_CHARS)
    )
  )
    return 'enumNames must be one label per value of enum';
  return undefined;
}

function checkTitled(list: unknown, key: string): string | undefined {
  if (
    !Array.isArray(list) ||
    !list.every(
      (option) =>
        isRecord(option) &&
        Object.keys(option).every((k) => k === 'const' || k === 'title') &&
        typeof option.title === 'string' &&
        option.title.length <= MAX_LABEL_CHARS,
    ) ||
    !options(list.map((option: { const: unknown }) => option.const))
  )
    return `${key} must be 1 to ${MAX_OPTIONS} options { const, title }, each value different, non-empty text`;
  return undefined;
}

function options(values: unknown): values is string[] {
  return (
    Array.isArray(values) &&
    values.length > 0 &&
    values.length <= MAX_OPTIONS &&
    new Set(values).size === values.length &&
    values.every((value) => typeof value === 'string' && value !== '' && value.length <= MAX_LABEL_CHARS)
  );
}

/** What is wrong with a value for a field, or undefined when it fits. */
function valueProblem(field: FormField, value: unknown, what = 'the value'): string | undefined {
  const choices = fieldChoices(field)?.map((choice) => choice.value);
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${what} must be true or false`;
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${what} must be a number`;
      if (field.type === 'integer' && !Number.isInteger(value)) return `${what} must be a whole number`;
      if (field.minimum !== undefined && value < field.minimum) return `${what} must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `${what} must be at most ${field.maximum}`;
      return undefined;
    }
    case 'array': {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && choices!.includes(item)))
        return `${what} must be a list of ${choices!.join(', ')}`;
      if (new Set(value).size !== value.length) return `${what} names a choice twice`;
      if (field.minItems !== undefined && value.length < field.minItems)
        return `${what} must have at least ${field.minItems} choices`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `${what} must have at most ${field.maxItems} choices`;
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return `${what} must be text`;
      if (choices !== undefined)
        return choices.includes(value) ? undefined : `${what} must be one of ${choices.join(', ')}`;
      const text = field as TextField;
      if (value.length > (text.maxLength ?? MAX_TEXT_CHARS))
        return `${what} must be at most ${text.maxLength ?? MAX_TEXT_CHARS} characters`;
      if (text.minLength !== undefined && value.length < text.minLength)
        return `${what} must be at least ${text.minLength} characters`;
      if (text.format !== undefined && !fitsFormat(value, text.format))
        return `${what} must be ${FORMAT_WORDS[text.format]}`;
      return undefined;
    }
  }
}

const FORMAT_WORDS = {
  email: 'an email address',
  uri: 'an address such as https://example.com',
  date: 'a date such as 2026-12-31',
  'date-time': 'a date and time such as 2026-12-31T18:00:00Z',
};

/** Whether a text is what its `format` names (a light check: a person's typing, not a parser's). */
export function fitsFormat(value: string, format: (typeof FORMATS)[number]): boolean {
  if (format === 'email') return /^[^\s@]+@[^\s@]+$/.test(value);
  if (format === 'uri') return URL.canParse(value);
  if (format === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * A form's answer checked against its fields: each value that fits, a field left out taking its
 * default, or what is wrong (the field named) — a required field with no value and no default, a
 * value that does not fit, a name that is not a field.
 */
export function checkFormValues(
  form: { fields: AskFields; required?: readonly string[] },
  values: unknown,
): FormValues | string {
  if (!isRecord(values)) return 'the answer must be an object of values by field name';
  for (const name of Object.keys(values))
    if (!Object.hasOwn(form.fields, name))
      return `"${name.slice(0, 80)}" is not a field of this form (its fields: ${Object.keys(form.fields).join(', ')})`;
  const checked: FormValues = {};
  for (const [name, field] of Object.entries(form.fields)) {
    const value = values[name] ?? field.default;
    if (value === undefined) {
      if (form.required?.includes(name)) return `"${name}" is required`;
      continue;
    }
    const problem = valueProblem(field, value, `"${name}"`);
    if (problem !== undefined) return problem;
    checked[name] = structuredClone(value) as FormValue;
  }
  return checked;
}

/** A form's answer in words, for whoever reads `text` (a model, a log): `name: Ada; colors: red, blue`. */
export function formText(values: FormValues): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
