import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import type { AskAnswer, AskOptions } from '../tools/tool-context.ts';
import { elicit } from './elicitation.ts';

/** A person who gives these answers in turn, and what they were asked. */
function person(...answers: Array<string | undefined>) {
  const asked: Array<{ question: string; choices?: readonly string[] }> = [];
  const ask = async (question: string, options?: AskOptions): Promise<AskAnswer> => {
    asked.push({ question, ...(options?.choices === undefined ? {} : { choices: options.choices }) });
    const text = answers.shift();
    return text === undefined ? { answered: false, reason: 'timeout' } : { answered: true, text };
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

test('a form is asked field by field, each answer in its type; a skipped field is left to its default', async () => {
  const { ask, asked } = person('Answer', 'Ada', 'skip', 'yes', 'M');
  assert.deepEqual(await elicit('shop', form, { ask, language: 'en' }), {
    action: 'accept',
    content: { name: 'Ada', express: true, size: 'M' },
  });
  assert.match(
    asked[0]!.question,
    /MCP server "shop" asks for: Your shipping details\nIt wants: Name, Count, Express, Size/,
  );
  assert.deepEqual(asked[0]!.choices, ['Answer', 'Decline']);
  assert.deepEqual(asked[2]!.choices, ['skip'], 'a field with a default may be skipped');
  assert.match(asked[2]!.question, /Count \(a whole number, optional: leave it with "skip"; default 1\)/);
  assert.deepEqual(asked[4]!.choices, ['S', 'M', 'L']);
});

test('declining sends nothing; no answer in time cancels; an answer that does not fit is asked again once', async () => {
  assert.deepEqual(await elicit('shop', form, { ...person('Decline'), language: 'en' }), { action: 'decline' });
  assert.deepEqual(await elicit('shop', form, { ...person(), language: 'en' }), { action: 'cancel' });
  const twice = person('Answer', 'Ada', 'many', '3', 'no', 'M');
  assert.deepEqual(await elicit('shop', form, { ask: twice.ask, language: 'en' }), {
    action: 'accept',
    content: { name: 'Ada', count: 3, express: false, size: 'M' },
  });
  assert.match(twice.asked[3]!.question, /That is not a whole number\. Count again/);
  const wrong = person('Answer', 'Ada', 'many', 'lots');
  assert.deepEqual(await elicit('shop', form, { ask: wrong.ask, language: 'en' }), { action: 'cancel' });
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
