// Issue 21: a turn's events carry what a call says while it runs (progress, log lines) and the
// parts it returns; /api's chat events write the bytes as base64. Real local model server, real tool files.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import { chatEvent } from '../server/api/chat-events.ts';
import { toolSource } from '../tool-runtime/test-support.ts';
import { runTurn } from './run-turn.ts';
import type { TurnEvent } from './turn-events.ts';
import { loadRegistry, modelServer, testModel } from './turn-test-support.ts';

const CHART = toolSource('chart', {
  execute: `context.progress(1, 2, 'drawing'); context.log('info', 'axes done'); context.progress(2, 2);
    return { success: true, content: [{ type: 'text', text: 'a chart of sales' }, { type: 'image', data: new Uint8Array([137, 80, 78, 71]), mimeType: 'image/png' }], structured: { total: 3 } };`,
});

it('a call that reports progress and logs: tool-progress and tool-log events, in order, before its tool-result with the parts', async (t) => {
  for (const isolation of ['worker', 'none'] as const) {
    const registry = await loadRegistry(t, { files: { 'chart.ts': CHART }, config: { tools: { isolation } } });
    const server = await modelServer(
      t,
      replies([{ toolCalls: [{ name: 'chart', arguments: {} }] }, { text: 'Here it is.' }]),
    );
    const events: TurnEvent[] = [];
    const result = await runTurn({
      model: testModel(server),
      registry,
      history: [],
      input: 'draw the chart',
      language: 'en',
      stream: true,
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    const said = events.filter(
      (event) => event.type === 'tool-progress' || event.type === 'tool-log' || event.type === 'tool-result',
    );
    const callId = result.toolCalls[0]!.callId;
    assert.deepEqual(
      said.slice(0, 3),
      [
        { type: 'tool-progress', callId, tool: 'chart', progress: 1, total: 2, message: 'drawing' },
        { type: 'tool-log', callId, tool: 'chart', level: 'info', message: 'axes done' },
        { type: 'tool-progress', callId, tool: 'chart', progress: 2, total: 2 },
      ],
      isolation,
    );
    const last = said.at(-1)!;
    assert.equal(last.type, 'tool-result');
    const sent = chatEvent(last)!.data as { data: string; content: unknown[]; structured: unknown };
    assert.equal(sent.data, 'a chart of sales');
    assert.deepEqual(sent.content[1], { type: 'image', data: 'iVBORw==', mimeType: 'image/png' });
    assert.deepEqual(sent.structured, { total: 3 });
  }
});
