// The terminal's prompts with the real Approvals desk (in memory) and lines fed by the test: each
// answer bound to the call shown, and a prompt given up on (its approval timed out) leaves its line
// to the chat.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Approvals } from '../../assistant/approvals.ts';
import type { TurnEvent } from '../../assistant/turn-events.ts';
import { lineReader, terminalPrompts } from './person-prompt.ts';

/** Lines the test types, one at a time. */
function keyboard() {
  const waiting: Array<(result: IteratorResult<string>) => void> = [];
  const typed: string[] = [];
  const lines: AsyncIterator<string> = {
    next: () =>
      new Promise((resolve) =>
        typed.length > 0 ? resolve({ value: typed.shift()!, done: false }) : waiting.push(resolve),
      ),
  };
  return {
    lines,
    type: (line: string) => (waiting.length > 0 ? waiting.shift()!({ value: line, done: false }) : typed.push(line)),
  };
}

async function request(desk: Approvals, callId: string, emit: (event: TurnEvent) => void) {
  return desk.request(
    { sessionId: 's', turnId: 't', callId, tool: 'write_note', params: { text: callId } },
    undefined,
    (pending) =>
      emit({
        type: 'approval-request',
        approvalId: pending.id,
        callId,
        tool: pending.tool,
        params: pending.params,
        expiresAt: pending.expiresAt,
      }),
  );
}

describe('terminal prompts', { timeout: 10_000 }, () => {
  it('parallel requests are asked one after another, each answer going to its own call', async () => {
    const desk = new Approvals({ timeoutMs: 10_000 });
    const { lines, type } = keyboard();
    let out = '';
    const prompts = terminalPrompts({
      approvals: desk,
      reader: lineReader(lines),
      write: (text) => void (out += text),
      language: 'en',
      echoes: true,
    });
    const first = request(desk, 'call_1', prompts);
    const second = request(desk, 'call_2', prompts);
    type('n not this one');
    type('y');
    assert.deepEqual([(await first).approved, (await second).approved], [false, true]);
    assert.match(out, /\{"text":"call_1"\}[\s\S]*\{"text":"call_2"\}/);
  });

  it('a prompt whose approval timed out is given up, and the next line goes to the chat', async () => {
    const desk = new Approvals({ timeoutMs: 30 });
    const { lines, type } = keyboard();
    const reader = lineReader(lines);
    let out = '';
    const prompts = terminalPrompts({
      approvals: desk,
      reader,
      write: (text) => void (out += text),
      language: 'ja',
      echoes: true,
    });
    const outcome = await request(desk, 'call_1', prompts);
    assert.equal(outcome.approved, false);
    prompts({
      type: 'approval-answered',
      approvalId: outcome.approvalId,
      callId: 'call_1',
      tool: 'write_note',
      decision: 'approval-timeout',
    });
    assert.match(out, /\[時間内に回答がありませんでした：write_note は実行されていません\]/);
    type('hello again');
    assert.equal(await reader.next(), 'hello again', "the line typed after the timeout is the chat's");
  });
});
