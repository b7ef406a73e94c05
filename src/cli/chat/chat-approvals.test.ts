// Approvals in `riverse chat`, run as a user runs it with the answers piped in: the weather tool
// made to need approval in riverse.yaml; whether it ran is read from the local wttr.in-like server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplyHandler } from '../../models/testing/openai-wire.ts';
import { join } from 'node:path';
import { writeFiles } from '../../tool-runtime/test-support.ts';
import { cliSetup, runRiverse } from '../assistant-cli-test-support.ts';
import { show } from '../cli-test-support.ts';
import { readDecision } from './person-prompt.ts';

/** The model: the weather of the city the user names, then the tool's answer said back. */
const cityModel: ReplyHandler = (request) => {
  const last = request.body.messages.at(-1)!;
  if (last.role === 'tool') return { text: `Said: ${String(last.content)}` };
  return { toolCalls: [{ name: 'weather', arguments: { city: String(last.content).replace(/[?？]$/u, '') } }] };
};

describe('approvals in riverse chat', { concurrency: true }, () => {
  it('y runs once, n <reason> refuses with the reason, a runs this call and the later ones of the session without asking', async (t) => {
    const setup = await cliSetup(t, cityModel, { config: '    approval: always\n' });
    const input = 'Tokyo?\ny\nLondon?\nn not London\nParis?\nmaybe\na\nBerlin?\n/exit\n';
    const result = await runRiverse(['chat', '--session', 'w'], { cwd: setup.project, env: setup.env, input });
    assert.equal(result.code, 0, show(result));
    assert.deepEqual(
      setup.wttr.requests.map((request) => request.city),
      ['Tokyo', 'Paris', 'Berlin'],
    );
    const out = result.stdout;
    assert.match(
      out,
      /\[approval\] weather wants to run with \{"city":"Tokyo"\}\n {2}y = yes, once · a = always for weather in this session · n = no \(n <reason> says why\) > \n⚙ weather \{"city":"Tokyo"\} ✓/,
    );
    assert.match(
      out,
      /⚙ weather \{"city":"London"\} ✗ denied: The person denied this call to weather; it did not run\. Their reason: "not London"/,
    );
    assert.match(out, /Please answer y, a or n \(n <reason>\)\./, 'an answer that is none of them is asked again');
    assert.equal(out.match(/\[approval\]/g)?.length, 3, 'Berlin was not asked');
    const london = setup.model.requests.find(
      (request) =>
        request.body.messages.at(-1)?.role === 'tool' &&
        String(request.body.messages.at(-1)?.content).includes('London'),
    );
    assert.match(String(london?.body.messages.at(-1)?.content), /denied .*Their reason: "not London"/);
  });

  it('in the chat’s language, and the end of the input is a no', async (t) => {
    const setup = await cliSetup(t, cityModel, { config: '    approval: always\n' });
    const result = await runRiverse(['chat', '--lang', 'zh'], {
      cwd: setup.project,
      env: setup.env,
      input: '东京？\n是\n伦敦？\n',
    });
    assert.equal(result.code, 0, show(result));
    assert.match(
      result.stdout,
      /\[需要批准\] weather 要以 \{"city":"东京"\} 运行\n {2}y = 同意（仅此一次）· a = 本会话中始终允许 weather · n = 拒绝/,
    );
    assert.deepEqual(
      setup.wttr.requests.map((request) => request.city),
      ['东京'],
    );
    assert.match(result.stdout, /weather \{"city":"伦敦"\} ✗ .*no answer: the input ended/);
  });
});

describe('questions in riverse chat', () => {
  it('a tool asks (context.ask, in its own process): the question is printed, the next line is the answer', async (t) => {
    const setup = await cliSetup(t, (request) =>
      request.body.messages.at(-1)?.role === 'tool'
        ? { text: `Said: ${String(request.body.messages.at(-1)?.content)}` }
        : { toolCalls: [{ name: 'pick', arguments: {} }] },
    );
    await writeFiles(join(setup.project, 'agent', 'tools'), {
      'pick.ts': `import { BaseTool, ToolResult } from 'riverse';
export class PickTool extends BaseTool {
  manifest() { return { name: 'pick', description: 'Asks for a colour', examples: ['pick a colour', 'choose'] }; }
  async execute(params, context) {
    const answer = await context.ask('Which colour?', { choices: ['red', 'blue'] });
    return ToolResult.ok(answer.answered ? 'picked ' + answer.text : 'no answer: ' + answer.reason);
  }
}
`,
    });
    const result = await runRiverse(['chat', '--lang', 'ja'], {
      cwd: setup.project,
      env: setup.env,
      input: '色を選んで\n青\n/exit\n',
    });
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /\[pick からの質問\] Which colour\?（red \/ blue）\n {2}> \n/);
    assert.match(result.stdout, /Said: picked 青\n/);
  });
});

describe('forms in riverse chat', () => {
  const FORM_TOOL = `import { BaseTool, ToolResult } from 'riverse';
export class BookTool extends BaseTool {
  manifest() { return { name: 'book', description: 'Books a table', examples: ['book a table', 'reserve'] }; }
  async execute(params, context) {
    const answer = await context.ask('Book a table', {
      fields: {
        name: { type: 'string', title: 'Name' },
        guests: { type: 'integer', minimum: 1, maximum: 8, default: 2 },
        room: { type: 'string', oneOf: [{ const: 'in', title: 'Inside' }, { const: 'out', title: 'Terrace' }] },
        extras: { type: 'array', items: { type: 'string', enum: ['cake', 'view'] } },
        dog: { type: 'boolean', description: 'coming along?' },
      },
      required: ['name', 'room'],
    });
    return ToolResult.ok(answer.answered ? 'booked ' + JSON.stringify(answer.values) : 'no answer: ' + answer.reason);
  }
}
`;
  const setupBook = async (t: Parameters<typeof cliSetup>[0]) => {
    const setup = await cliSetup(t, (request) =>
      request.body.messages.at(-1)?.role === 'tool'
        ? { text: `Said: ${String(request.body.messages.at(-1)?.content)}` }
        : { toolCalls: [{ name: 'book', arguments: {} }] },
    );
    await writeFiles(join(setup.project, 'agent', 'tools'), { 'book.ts': FORM_TOOL });
    return setup;
  };

  it('a prompt per field with its choices and default; a wrong line is asked again; Enter takes the default', async (t) => {
    const setup = await setupBook(t);
    // name: empty (required) then Ada; guests: 9 (over) then Enter (2); room: 3 (no such) then 2; extras: 1,2; dog: maybe then y.
    const input = 'book it\n\nAda\n9\n\n3\n2\n1, 2\nmaybe\ny\n/exit\n';
    const result = await runRiverse(['chat'], { cwd: setup.project, env: setup.env, input });
    assert.equal(result.code, 0, show(result));
    const out = result.stdout;
    assert.match(out, /\[book asks\] Book a table\n {2}Name\n {2}\(required\) > /);
    assert.match(out, /This one needs an answer\./);
    assert.match(out, / {2}guests\n {2}\(Enter: 2\) > /);
    assert.match(out, /At most 8, please\./);
    assert.match(out, / {2}room\n {4}1 = Inside\n {4}2 = Terrace\n {2}\(required\) > /);
    assert.match(out, /Please pick one of the numbers shown\./);
    assert.match(out, / {2}extras\n {4}1 = cake\n {4}2 = view\n {2}\(numbers separated by commas\) > /);
    assert.match(out, / {2}dog — coming along\?\n {2}\(y\/n\) > /);
    assert.match(out, /Said: booked \{"name":"Ada","guests":2,"room":"out","extras":\["cake","view"\],"dog":true\}\n/);
  });

  it('in the chat’s language; the end of the input declines the form', async (t) => {
    const setup = await setupBook(t);
    const result = await runRiverse(['chat', '--lang', 'zh'], {
      cwd: setup.project,
      env: setup.env,
      input: '订桌\n阿达\n',
    });
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /\[book 提问\] Book a table\n {2}Name\n {2}\(必填\) > /);
    assert.match(result.stdout, / {2}guests\n {2}\(回车：2\) > /);
    assert.match(result.stdout, /Said: no answer: cancelled\n/);
  });
});

describe('readDecision', () => {
  it('reads y, a and n (with a reason) in English, Chinese and Japanese; anything else is no answer', () => {
    assert.deepEqual(
      ['y', 'YES', '是', 'はい'].map((line) => readDecision(line)?.decision),
      ['approve', 'approve', 'approve', 'approve'],
    );
    assert.deepEqual(
      ['a', 'always', '总是', '常に'].map((line) => readDecision(line)?.decision),
      ['always', 'always', 'always', 'always'],
    );
    assert.deepEqual(readDecision('n'), { decision: 'deny' });
    assert.deepEqual(readDecision('no: too risky'), { decision: 'deny', reason: 'too risky' });
    assert.deepEqual(readDecision('否 太危险'), { decision: 'deny', reason: '太危险' });
    assert.deepEqual(readDecision('いいえ、やめて'), { decision: 'deny', reason: 'やめて' });
    assert.equal(readDecision('nope'), undefined, 'not a "no" followed by a reason');
    assert.equal(readDecision('yes please'), undefined);
  });
});
