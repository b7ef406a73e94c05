// MCP calls and runs by hand in the caller's trace: a `tools/call` whose `_meta` carries a
// traceparent, and `POST /api/tools/:name/run` with the header, are exported under the caller's
// span (a real OTLP receiver, the official exporter, the MCP SDK's client, the real service).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createOtlpExport } from '../telemetry/otlp-export.ts';
import { telemetryPlan } from '../telemetry/telemetry-settings.ts';
import { startOtlpReceiver } from '../telemetry/testing/otlp-receiver.ts';
import { startTestService } from './server-test-support.ts';

const ADD = `import { BaseTool, ToolResult } from 'riverse';
export class AddTool extends BaseTool {
  manifest() {
    return { name: 'add', description: 'Adds two numbers', examples: ['add 2 and 3'],
      parameters: { a: { type: 'number', required: true, description: 'a' }, b: { type: 'number', required: true, description: 'b' } } };
  }
  async execute(params) { return ToolResult.ok(String(params.a + params.b)); }
}
`;
const TRACE = '5b8efff798038103d269b633813fc60c';
const CALLER = 'eee19b7ec3c1b174';

describe('MCP calls and runs by hand, exported', () => {
  it('a tools/call with _meta.traceparent, and a run by hand with the header, land under the caller’s span', async (t) => {
    const receiver = await startOtlpReceiver();
    t.after(() => receiver.close());
    const telemetry = await createOtlpExport(telemetryPlan({ endpoint: receiver.url }, {})!, { delayMs: 10 });
    const service = await startTestService(t, { files: { 'add.ts': ADD }, telemetry });
    const client = new Client({ name: 'riverse-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url)));
    t.after(() => client.close());
    const called = await client.callTool({
      name: 'add',
      arguments: { a: 2, b: 3 },
      _meta: { traceparent: `00-${TRACE}-${CALLER}-01` },
    });
    assert.deepEqual(called.content, [{ type: 'text', text: '5' }]);
    const run = await fetch(`${service.url}api/tools/add/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE}-${CALLER}-01` },
      body: JSON.stringify({ params: { a: 1, b: 1 } }),
    });
    assert.equal(run.status, 200);
    await telemetry.shutdown();

    const spans = receiver.spans();
    const mcp = spans.find((span) => span.attributes['riverse.via'] === 'mcp');
    assert.ok(mcp !== undefined, `an MCP call's span (got ${spans.map((span) => span.name).join(', ')})`);
    assert.equal(mcp.name, 'execute_tool add');
    assert.equal(mcp.traceId, TRACE);
    assert.equal(mcp.parentSpanId, CALLER);
    assert.equal(mcp.attributes['gen_ai.tool.name'], 'add');
    // The run by hand: its turn under the caller's span, its call under its turn; the stored trace has the same id.
    const hand = spans.find((span) => span.name === 'invoke_agent');
    assert.ok(hand !== undefined);
    assert.equal(hand.traceId, TRACE);
    assert.equal(hand.parentSpanId, CALLER);
    assert.equal(hand.attributes['riverse.hand_run'], 'api');
    const handCall = spans.find((span) => span.name === 'execute_tool add' && span.parentSpanId === hand.spanId);
    assert.ok(handCall !== undefined);
    assert.equal((await service.context.store.turnTraces.last(true))!.traceId, TRACE);
  });
});
