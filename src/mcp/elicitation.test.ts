import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import type { AskAnswer, AskOptions } from '../tools/tool-context.ts';
import { elicit } from './elicitation.ts';

/** A person who gives these answers in turn (text, or a form's values), and what they were asked. */
function person(...answers: Array<string | Record<string, unknown> | 'cancelled' | undefined>) {
  const asked: Array<{ question: string; choices?: readonly string[]; fields?: unknown; required?: unknown }> = [];
  const ask = async (question: string, options?: AskOptions): Promise<AskAnswer> => {
    asked.push({
      question,
      ...(options?.choices === undefined ? {} : { choices: options.choices }),
      ...(options?.fields === undefined ? {} : { fields: options.fields, required: options.required }),
    });
    const answer = answers.shift();
    if (answer === undefined) return { answered: false, reason: 'timeout' };
    if (answer === 'cancelled') return { answered: false, reason: 'cancelled' };
    return typeof answer === 'string'
      ? { answered: true, text: answer }
      : { answered: true, text: JSON.stringify(answer), values: answer as Record<string, string> };
  };
  return { ask, asked };
}

const form: ElicitRequestParams = {
  mode: 'form',
  message: 'Your shipping details',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      count: { type: 'integer', title: 'Count', default: 1 },
      express: { type: 'boolean', title: 'Express' },
      size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'] },
    },
    required: ['name', 'express', 'size'],
  },
};

/** A form with a keyword outside MCP's restricted schemas: asked field by field. */
const patterned: ElicitRequestParams = {
  mode: 'form',
  message: 'Your shipping details',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', pattern: '^[A-Z]' } as never,
      count: { type: 'integer', title: 'Count', default: 1 },
      express: { type: 'boolean', title: 'Express' },
      size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'] },
    },
    required: ['name', 'express', 'size'],
  },
};

test("a form in MCP's schemas is ONE question with its fields (one card, one form): its values are the content", async () => {
  const { ask, asked } = person({ name: 'Ada', count: 1, express: true, size: 'M' });
  assert.deepEqual(await elicit('shop', form, { ask, language: 'en' }), {
    action: 'accept',
    content: { name: 'Ada', count: 1, express: true, size: 'M' },
  });
  assert.equal(asked.length, 1, 'one question');
  assert.match(
    asked[0]!.question,
    /MCP server "shop" asks for: Your shipping details\nIt wants: Name, Count, Express, Size/,
  );
  assert.deepEqual(asked[0]!.fields, (form.requestedSchema as { properties: unknown }).properties);
  assert.deepEqual(asked[0]!.required, ['name', 'express', 'size']);
});

test('a form declined sends nothing; no answer in time cancels', async () => {
  assert.deepEqual(await elicit('shop', form, { ...person('cancelled'), language: 'en' }), { action: 'decline' });
  assert.deepEqual(await elicit('shop', form, { ...person(), language: 'en' }), { action: 'cancel' });
});

test('a form outside those schemas is asked field by field, each answer in its type; a skipped field is left to its default', async () => {
  const { ask, asked } = person('Answer', 'Ada', 'skip', 'yes', 'M');
  assert.deepEqual(await elicit('shop', patterned, { ask, language: 'en' }), {
    action: 'accept',
    content: { name: 'Ada', express: true, size: 'M' },
  });
  assert.deepEqual(asked[0]!.choices, ['Answer', 'Decline']);
  assert.deepEqual(asked[2]!.choices, ['skip'], 'a field with a default may be skipped');
  assert.match(asked[2]!.question, /Count \(a whole number, optional: leave it with "skip"; default 1\)/);
  assert.deepEqual(asked[4]!.choices, ['S', 'M', 'L']);
  assert.deepEqual(await elicit('shop', patterned, { ...person('Decline'), language: 'en' }), { action: 'decline' });
  const twice = person('Answer', 'Ada', 'many', '3', 'no', 'M');
  assert.deepEqual(await elicit('shop', patterned, { ask: twice.ask, language: 'en' }), {
    action: 'accept',
    content: { name: 'Ada', count: 3, express: false, size: 'M' },
  });
  assert.match(twice.asked[3]!.question, /That is not a whole number\. Count again/);
});

test('where no one can be asked, the request is declined', async () => {
  const ask = async (): Promise<AskAnswer> => ({ answered: false, reason: 'unavailable' });
  assert.deepEqual(await elicit('shop', form, { ask, language: 'en' }), { action: 'decline' });
});

test('URL mode shows the link and its domain, never opens it, and asks whether it is done — in the person’s language', async () => {
  const request: ElicitRequestParams = {
    mode: 'url',
    message: 'Connect your account',
    url: 'https://accounts.example.com/connect?x=1',
    elicitationId: 'e1',
  };
  const { ask, asked } = person('完成');
  assert.deepEqual(await elicit('shop', request, { ask, language: 'zh' }), { action: 'accept' });
  assert.match(asked[0]!.question, /accounts\.example\.com/);
  assert.match(asked[0]!.question, /Riverse 不会替你打开/);
  assert.deepEqual(asked[0]!.choices, ['完成', '拒绝']);
  assert.deepEqual(await elicit('shop', request, { ...person('拒绝'), language: 'zh' }), { action: 'decline' });
});
