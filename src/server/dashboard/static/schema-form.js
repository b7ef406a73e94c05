// @ts-check
// A form generated from a tool's parameters (a JSON Schema object): a select for an enum, a
// checkbox per choice for a list of choices, a checkbox for a boolean, a number input for numbers,
// a text input for strings, and a JSON text area, checked in the page, for nested objects and
// other arrays. Required fields are marked.
import { h, setText } from './dom.js';
import { choiceList, fieldKind, mainType, readParams } from './schema-values.js';

/** @import { FieldError, JsonSchema } from './schema-values.js' */
/**
 * One field: its element, the input that takes the focus, what it reads, and how it shows a problem.
 * @typedef {{ element: HTMLElement, input: HTMLElement, raw(): unknown, showError(result: FieldError | undefined): void }} Field
 */

let formCount = 0;

/**
 * `{ element, read() }`: read() marks wrong fields and returns `{ params }` or undefined.
 * @param {JsonSchema | undefined} schema
 */
export function schemaForm(schema) {
  const prefix = `form${++formCount}`;
  const properties = Object.entries(schema?.properties ?? {});
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  /** @type {Map<string, Field>} */
  const fields = new Map();
  const element = h('div', { class: 'form-fields' });
  if (properties.length === 0) element.append(h('p', { class: 'muted', i18n: 'noParameters' }));
  for (const [name, property] of properties) {
    const build = fieldKind(property ?? {}) === 'enum-array' ? buildChoices : buildField;
    const field = build(`${prefix}-${name.replace(/[^\w-]/g, '_')}`, name, property ?? {}, required.has(name));
    fields.set(name, field);
    element.append(field.element);
  }
  const read = () => {
    /** @type {Record<string, unknown>} */
    const raws = {};
    for (const [name, field] of fields) raws[name] = field.raw();
    const result = readParams(schema ?? {}, raws);
    for (const [name, field] of fields) field.showError(result.errors?.[name]);
    if (result.errors) {
      const first = fields.get(Object.keys(result.errors)[0] ?? '');
      first?.input.focus();
      return undefined;
    }
    return { params: result.params };
  };
  return { element, read };
}

/**
 * A list of choices (an array whose items are an enum): a group of checkboxes, one per choice.
 * @param {string} id
 * @param {string} name
 * @param {JsonSchema} schema
 * @param {boolean} isRequired
 */
function buildChoices(id, name, schema, isRequired) {
  const { values: choices, labels } = choiceList(schema.items) ?? { values: [], labels: [] }; // fieldKind saw them
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const description = typeof schema.description === 'string' ? schema.description : '';
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const chosen = Array.isArray(schema.default) ? schema.default.map((value) => JSON.stringify(value)) : [];
  const boxes = choices.map((choice, index) =>
    h('input', {
      type: 'checkbox',
      id: `${id}-${index}`,
      name,
      value: String(index),
      checked: chosen.includes(JSON.stringify(choice)),
    }),
  );
  const element = h(
    'fieldset',
    {
      class: 'field choices',
      'aria-describedby': [description === '' ? '' : helpId, errorId].filter(Boolean).join(' '),
    },
    h(
      'legend',
      {},
      schema.title ?? name,
      isRequired ? h('span', { class: 'required', 'aria-hidden': 'true', text: '*' }) : null,
      isRequired ? h('span', { class: 'visually-hidden', i18n: 'requiredField' }) : null,
    ),
    h(
      'div',
      { class: 'choice-list' },
      boxes.map((box, index) => h('label', { class: 'choice', for: box.id }, box, labels[index] ?? '')),
    ),
    description === '' ? null : h('span', { class: 'help', id: helpId, text: description }),
    error,
  );
  const input = boxes[0] ?? h('input', { type: 'checkbox', hidden: true });
  return {
    element,
    input,
    raw: () => boxes.flatMap((box, index) => (box.checked ? [index] : [])),
    /** @param {FieldError | undefined} result */
    showError(result) {
      error.hidden = result === undefined;
      if (result === undefined) element.removeAttribute('aria-invalid');
      else {
        setText(error, result.error, result.vars ?? {});
        element.setAttribute('aria-invalid', 'true');
      }
    },
  };
}

/**
 * @param {string} id
 * @param {string} name
 * @param {JsonSchema} schema
 * @param {boolean} isRequired
 */
function buildField(id, name, schema, isRequired) {
  const kind = fieldKind(schema);
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const description = typeof schema.description === 'string' ? schema.description : '';
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const describedBy = [description === '' ? '' : helpId, errorId].filter(Boolean).join(' ');
  /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */
  let input;
  if (kind === 'enum') {
    const { values: choices, labels } = choiceList(schema) ?? { values: [], labels: [] }; // fieldKind saw them
    input = h(
      'select',
      { id, name, 'aria-describedby': describedBy, required: isRequired },
      h('option', { value: '', i18n: isRequired ? 'chooseOne' : 'notSet' }),
      labels.map((label, index) => h('option', { value: String(index), text: label })),
    );
    const initial =
      schema.default === undefined
        ? -1
        : choices.findIndex((choice) => JSON.stringify(choice) === JSON.stringify(schema.default));
    if (initial >= 0) input.value = String(initial);
  } else if (kind === 'boolean') {
    input = h('input', {
      id,
      name,
      type: 'checkbox',
      'aria-describedby': describedBy,
      checked: schema.default === true,
    });
  } else if (kind === 'integer' || kind === 'number') {
    input = h('input', {
      id,
      name,
      type: 'number',
      inputmode: kind === 'integer' ? 'numeric' : 'decimal',
      step: kind === 'integer' ? '1' : 'any',
      min: typeof schema.minimum === 'number' ? schema.minimum : undefined,
      max: typeof schema.maximum === 'number' ? schema.maximum : undefined,
      value: typeof schema.default === 'number' ? schema.default : undefined,
      required: isRequired,
      'aria-describedby': describedBy,
    });
  } else if (kind === 'string') {
    const long = typeof schema.maxLength !== 'number' || schema.maxLength > 200;
    const props = {
      id,
      name,
      required: isRequired,
      'aria-describedby': describedBy,
      value: typeof schema.default === 'string' ? schema.default : undefined,
    };
    input =
      long && /text|content|body|code|query|prompt/i.test(name)
        ? h('textarea', { ...props, rows: 3 })
        : h('input', { ...props, type: 'text', autocomplete: 'off' });
  } else {
    input = h('textarea', {
      id,
      name,
      rows: 4,
      spellcheck: 'false',
      class: 'json-input',
      required: isRequired,
      'aria-describedby': describedBy,
      i18nPlaceholder: mainType(schema) === 'array' ? 'jsonArrayPlaceholder' : 'jsonObjectPlaceholder',
      value: schema.default === undefined ? undefined : JSON.stringify(schema.default, null, 2),
    });
  }
  const label = h(
    'label',
    { for: id },
    schema.title ?? name,
    isRequired ? h('span', { class: 'required', 'aria-hidden': 'true', text: '*' }) : null,
    isRequired ? h('span', { class: 'visually-hidden', i18n: 'requiredField' }) : null,
    kind === 'json' ? h('span', { class: 'muted', i18n: 'jsonField' }) : null,
  );
  const help = description === '' ? null : h('span', { class: 'help', id: helpId, text: description });
  const element = h(
    'div',
    { class: kind === 'boolean' ? 'field checkbox' : 'field' },
    kind === 'boolean' ? [input, label] : [label, input],
    help,
    error,
  );
  return {
    element,
    input,
    raw: () => (kind === 'boolean' ? /** @type {HTMLInputElement} */ (input).checked : input.value),
    /** @param {FieldError | undefined} result */
    showError(result) {
      if (result === undefined) {
        error.hidden = true;
        input.removeAttribute('aria-invalid');
        return;
      }
      setText(error, result.error, result.vars ?? {});
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
    },
  };
}
