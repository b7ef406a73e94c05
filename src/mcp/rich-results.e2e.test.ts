// Issue 21 over /mcp, with the SDK's client: a tool's `output` is its outputSchema and its
// `structured` the call's structuredContent; progress goes to the progress token's listener; a failed
// output check is a tool result with isError, not a protocol error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestService } from '../server/server-test-support.ts';

const FORECAST = `import { BaseTool } from 'riverse';
export class ForecastTool extends BaseTool {
  manifest() {
    return {
      name: 'forecast',
      description: 'The weather as data.',
      examples: ['the forecast', 'weather as data'],
      parameters: { wrong: { type: 'boolean' } },
      output: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
    };
  }
  async execute(params, context) {
    context.progress(1, 2);
    context.progress(2, 2);
    return { success: true, data: 'It is 21 degrees.', structured: { temperature: params.wrong ? 'warm' : 21 } };
  }
}
`;

test("/mcp: output as outputSchema, structured as structuredContent, progress to the client's listener, a broken output as isError", async (t) => {
  const service = await startTestService(t, { files: { 'forecast.ts': FORECAST } });
  const client = new Client({ name: 'riverse-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url)));
  t.after(() => client.close());
  const [tool] = (await client.listTools()).tools;
  assert.deepEqual(tool?.outputSchema, {
    type: 'object',
    properties: { temperature: { type: 'number' } },
    required: ['temperature'],
  });
  const progress: number[] = [];
  const result = await client.callTool(
    { name: 'forecast', arguments: {} },
    {
      onprogress: (report) => progress.push(report.progress),
    },
  );
  assert.deepEqual(result.structuredContent, { temperature: 21 });
  assert.deepEqual(result.content, [{ type: 'text', text: 'It is 21 degrees.' }]);
  assert.deepEqual(progress, [1, 2]);
  const broken = await client.callTool({ name: 'forecast', arguments: { wrong: true } });
  assert.equal(broken.isError, true);
  assert.match(
    (broken.content as Array<{ text: string }>)[0]!.text,
    /does not match its manifest's output schema: \/temperature must be number\. \(invalid-result\)/,
  );
});
