// A reply with many calls: every one runs (issue 21), a bounded number at once, exclusive tools
// alone; past the ceiling each call is answered as not run, so the conversation stays valid.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { Assistant } from './assistant.ts';
import { runTurn } from './run-turn.ts';
import {
  loadRegistry,
  logLines,
  messagesOf,
  modelServer,
  napTool,
  sharedCleanup,
  systemOf,
  tempDir,
  testModel,
  toolMessagesOf,
} from './turn-test-support.ts';

/**
 * `in_flight({ id, at_once, total })`: logs "start id", waits, then logs "end id"; the log's order
 * tells how many ran at once. The first `at_once` calls wait until all of them run, then until
 * another one starts (a runtime that runs more at once shows it) or 100 ms more; the others until
 * `at_once` run, or all have started. The bound in time keeps a wrong runtime slow, not stuck.
 */
const IN_FLIGHT_TOOL = `import { appendFileSync, readFileSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';

export class InFlightTool extends BaseTool {
  manifest() {
    return {
      name: 'in_flight',
      description: 'Counts the calls running with it',
      parameters: {
        id: { type: 'integer', required: true, description: 'The call' },
        at_once: { type: 'integer', required: true, description: 'Calls to wait for' },
        total: { type: 'integer', required: true, description: 'Calls in all' },
      },
      examples: ['Count the calls', 'How many at once'],
    };
  }

  async execute(params, context) {
    const log = context.config.log_file;
    appendFileSync(log, 'start ' + params.id + '\\n');
    const first = params.id < params.at_once;
    const until = Date.now() + 2000;
    let full;
    for (;;) {
      const lines = readFileSync(log, 'utf8').split('\\n');
      const started = lines.filter((line) => line.startsWith('start')).length;
      const running = started - lines.filter((line) => line.startsWith('end')).length;
      if (running >= params.at_once) full ??= Date.now();
      // The first ones hold on a while once all of them run: time for one more to start, if it may.
      const enough = first ? started > params.at_once || (full !== undefined && Date.now() - full > 100) : full !== undefined;
      if (enough || started >= params.total || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    appendFileSync(log, 'end ' + params.id + '\\n');
    return ToolResult.ok('call ' + params.id + ' ran');
  }
}
`;

/** The most calls between their "start" and their "end" at once, from the log's order. */
function mostAtOnce(lines: readonly string[]): number {
  let running = 0;
  let most = 0;
  for (const line of lines) {
    running += line.startsWith('start') ? 1 : line.startsWith('end') ? -1 : 0;
    most = Math.max(most, running);
  }
  return most;
}

const shared = sharedCleanup();
let tools: ToolRegistry;
let logDir: string;
before(async () => {
  logDir = await tempDir(shared, 'riverse-many-calls-');
  tools = await loadTools(join(logDir, 'in-flight.log'));
});
after(() => shared.run());

async function loadTools(log: string): Promise<ToolRegistry> {
  return loadRegistry(shared, {
    files: {
      'in_flight.ts': IN_FLIGHT_TOOL,
      'nap.ts': napTool('nap'),
      'solo.ts': napTool('solo', { exclusive: true }),
    },
    config: { tools: { in_flight: { log_file: log } } },
  });
}

function inFlightCalls(count: number, atOnce: number) {
  return Array.from({ length: count }, (_, id) => ({
    name: 'in_flight',
    arguments: { id, at_once: atOnce, total: count },
  }));
}

describe('the calls of one reply', () => {
  it('100 calls in one reply all run, 4 at once with max_parallel_calls 4, and every result goes back in order', async (t) => {
    const server = await modelServer(t, replies([{ toolCalls: inFlightCalls(100, 4) }, { text: 'All done.' }]));
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Run them all',
      language: 'en',
      maxParallelCalls: 4,
    });
    assert.equal(result.stopReason, 'answer', result.text);
    assert.equal(result.text, 'All done.');
    assert.equal(result.toolCalls.length, 100);
    assert.ok(result.toolCalls.every((call) => call.result.success));
    const lines = logLines(join(logDir, 'in-flight.log'));
    assert.equal(lines.filter((line) => line.startsWith('start')).length, 100, 'every call ran once');
    assert.equal(mostAtOnce(lines), 4, 'the calls ran 4 at once, never more');
    const next = server.requests[1]!;
    assert.equal(messagesOf(next).find((message) => message.role === 'assistant')?.tool_calls?.length, 100);
    assert.deepEqual(
      toolMessagesOf(next).map((message) => message.content),
      Array.from({ length: 100 }, (_, id) => `call ${id} ran`),
    );
    assert.doesNotMatch(systemOf(next), /were left out/);
  });

  it('an exclusive tool still runs alone among them', async (t) => {
    const server = await modelServer(
      t,
      replies([
        {
          toolCalls: [
            ...Array.from({ length: 6 }, () => ({ name: 'nap', arguments: { ms: 30 } })),
            { name: 'solo', arguments: { ms: 30 } },
            ...Array.from({ length: 6 }, () => ({ name: 'nap', arguments: { ms: 30 } })),
          ],
        },
        { text: 'Rested.' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Nap',
      language: 'en',
      maxParallelCalls: 2,
    });
    assert.equal(result.stopReason, 'answer', result.text);
    const spans = result.toolCalls.map((call) => ({
      tool: call.tool,
      ...(JSON.parse(call.result.data) as { start: number; end: number }),
    }));
    const solo = spans.find((span) => span.tool === 'solo')!;
    for (const span of spans.filter((span) => span.tool === 'nap'))
      assert.ok(span.end <= solo.start || span.start >= solo.end, 'no nap overlaps the exclusive call');
  });

  it('past the ceiling of 256 calls, each call left is answered as not run, and the model is told', async (t) => {
    const calls = Array.from({ length: 260 }, (_, index) => ({ name: 'nap', arguments: { ms: index % 2 } }));
    const server = await modelServer(t, replies([{ toolCalls: calls }, { text: 'Enough.' }]));
    const events: string[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: 'Nap a great deal',
      language: 'en',
      onEvent: (event) => {
        if (event.type === 'tool-result') events.push(event.call.callId);
      },
    });
    assert.equal(result.stopReason, 'answer', result.text);
    assert.equal(result.toolCalls.length, 256, 'the calls that ran');
    assert.equal(events.length, 256);
    const next = server.requests[1]!;
    const results = toolMessagesOf(next);
    assert.equal(results.length, 260, 'a result for every call of the reply');
    const unrun = results.slice(256);
    const ids = (messagesOf(next).find((message) => message.role === 'assistant')?.tool_calls ?? []).map(
      (call) => call.id,
    );
    assert.deepEqual(
      unrun.map((message) => message.tool_call_id),
      ids.slice(256),
      'the calls not run are the last ones',
    );
    for (const message of unrun)
      assert.equal(
        message.content,
        'Error: Riverse did not run this call of nap: only the first 256 tool calls of one reply are run. Ask for it again in another round if you still need it.',
      );
    assert.match(systemOf(next), /Only the first 256 tool calls of your last reply were run; 4 more were left out\./);
  });

  it('assistant.max_parallel_calls reaches the turns of an Assistant', async (t) => {
    const log = join(logDir, 'assistant.log');
    const server = await modelServer(t, replies([{ toolCalls: inFlightCalls(9, 3) }, { text: 'Done.' }]));
    const assistant = new Assistant({ model: testModel(server), registry: await loadTools(log), maxParallelCalls: 3 });
    const result = await assistant.turn('Run them');
    assert.equal(result.stopReason, 'answer', result.text);
    assert.equal(result.toolCalls.length, 9);
    assert.equal(mostAtOnce(logLines(log)), 3);
  });

  it('a call not run is said so in the person’s language', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: Array.from({ length: 4 }, () => ({ name: 'nap', arguments: { ms: 0 } })) },
        { text: '好了。' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: tools,
      history: [],
      input: '全部运行',
      language: 'zh',
      maxCallsPerRound: 3,
    });
    assert.equal(result.stopReason, 'answer', result.text);
    assert.equal(result.toolCalls.length, 3);
    assert.equal(
      toolMessagesOf(server.requests[1]!)[3]?.content,
      'Error: Riverse 没有执行这次 nap 调用：一条回复中只执行前 3 个工具调用。如仍需要，请在下一轮再请求。',
    );
    assert.match(systemOf(server.requests[1]!), /只有前 3 个工具调用被执行，另外 1 个未执行/);
  });
});
