import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFields, checkFormValues, fieldChoices, formText, type AskFields } from './ask-form.ts';
import { checkQuestion } from './tool-context.ts';

const FORM: AskFields = {
  name: { type: 'string', title: 'Name', default: 'Ada' },
  age: { type: 'integer', minimum: 0, maximum: 150 },
  color: {
    type: 'string',
    oneOf: [
      { const: 'r', title: 'Red' },
      { const: 'b', title: 'Blue' },
    ],
    default: 'r',
  },
  size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
  tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, maxItems: 2 },
  agree: { type: 'boolean' },
  mail: { type: 'string', format: 'email' },
};

describe('a form for context.ask (MCP elicitation schemas)', () => {
  it('takes every kind of field MCP has, and passes them on as given', () => {
    const checked = checkFields(FORM, ['age', 'agree']);
    assert.deepEqual(checked, { fields: FORM, required: ['age', 'agree'] });
    assert.deepEqual(fieldChoices(FORM.color!), [
      { value: 'r', label: 'Red' },
      { value: 'b', label: 'Blue' },
    ]);
    assert.deepEqual(fieldChoices(FORM.size!)?.[1], { value: 'm', label: 'Medium' });
    assert.equal(fieldChoices(FORM.name!), undefined);
  });

  it('says what is wrong with a field, naming it', () => {
    const wrong: Array<[unknown, unknown, RegExp]> = [
      [{}, undefined, /fields must be an object of 1 to 20 fields/],
      [{ 'a b': { type: 'string' } }, undefined, /field name "a b" must be a letter/],
      [{ n: { type: 'date' } }, undefined, /field "n": type must be "string", "number"/],
      [{ n: { type: 'string', pattern: '.*' } }, undefined, /field "n": pattern is not part of this kind of field/],
      [{ n: { type: 'integer', default: 1.5 } }, undefined, /field "n": default must be a whole number/],
      [{ n: { type: 'number', minimum: 3, maximum: 1 } }, undefined, /minimum must not be above maximum/],
      [{ n: { type: 'string', enum: ['a', 'a'] } }, undefined, /enum must be 1 to 50 different/],
      [{ n: { type: 'string', enum: ['a'], default: 'b' } }, undefined, /default must be one of a/],
      [
        { n: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } },
        undefined,
        /enumNames must be one label per value/,
      ],
      [{ n: { type: 'array', items: { type: 'string' } } }, undefined, /items must be/],
      [{ n: { type: 'string', format: 'phone' } }, undefined, /format must be one of email, uri, date, date-time/],
      [{ n: { type: 'string' } }, ['m'], /required must list names of its fields, each once \(the fields are n\)/],
    ];
    for (const [fields, required, message] of wrong) {
      const problem = checkFields(fields, required);
      assert.equal(typeof problem, 'string', JSON.stringify(fields));
      assert.match(problem as string, message);
    }
  });

  it('checks an answer: defaults fill what is left out, each value fits its field, a required one is there', () => {
    const form = { fields: FORM, required: ['age'] };
    assert.deepEqual(checkFormValues(form, { age: 36, tags: ['x', 'z'], agree: true }), {
      name: 'Ada',
      age: 36,
      color: 'r',
      tags: ['x', 'z'],
      agree: true,
    });
    const wrong: Array<[unknown, RegExp]> = [
      [{}, /"age" is required/],
      [{ age: 200 }, /"age" must be at most 150/],
      [{ age: '3' }, /"age" must be a number/],
      [{ age: 3, color: 'Red' }, /"color" must be one of r, b/],
      [{ age: 3, tags: ['x', 'y', 'z'] }, /"tags" must have at most 2 choices/],
      [{ age: 3, mail: 'nobody' }, /"mail" must be an email address/],
      [{ age: 3, extra: 1 }, /"extra" is not a field of this form/],
      [[], /the answer must be an object/],
    ];
    for (const [values, message] of wrong) assert.match(String(checkFormValues(form, values)), message);
    assert.equal(formText({ name: 'Ada', tags: ['x', 'z'], agree: false }), 'name: Ada; tags: x, z; agree: false');
  });

  it("context.ask's options: fields with required and a key, or choices; today's text question unchanged", () => {
    assert.deepEqual(checkQuestion('Which?', { choices: ['a'] }), { question: 'Which?', choices: ['a'] });
    assert.deepEqual(
      checkQuestion('Name?', { fields: { name: { type: 'string' } }, required: ['name'], key: 'user_name' }),
      {
        question: 'Name?',
        fields: { name: { type: 'string' } },
        required: ['name'],
        key: 'user_name',
      },
    );
    assert.match(
      String(checkQuestion('Q?', { choices: ['a'], fields: { n: { type: 'string' } } })),
      /choices \(one answer in words\) or fields \(a form\), not both/,
    );
    assert.match(String(checkQuestion('Q?', { required: ['n'] })), /required names fields: give fields too/);
    for (const key of ['approve', 'ask-2', 'a b', ''])
      assert.match(String(checkQuestion('Q?', { key })), /key must be 1 to 64 letters/, key);
  });
});
