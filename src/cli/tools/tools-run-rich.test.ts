// Issue 21: `riverse tools run` shows a rich result — with --json the whole of it (parts, bytes as
// base64, structured), without it the text, a line per part, and progress as it comes — for a
// drop-in tool and for @modelcontextprotocol/server-everything's tools, which come through whole.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createProject, parseJson, show, type TempProject } from '../cli-test-support.ts';

const root = new URL('../../../', import.meta.url).pathname;
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const PLOT_TOOL = `import { BaseTool, type ToolContext, type ToolResult } from 'riverse';

export class PlotTool extends BaseTool {
  manifest() {
    return { name: 'plot', description: 'Draws a plot', examples: ['draw a plot', 'plot it'] };
  }
  async execute(_params: object, context: ToolContext): Promise<ToolResult> {
    context.progress(1, 2, 'axes');
    context.log('warn', 'no data for March');
    context.progress(2, 2);
    return {
      success: true,
      content: [
        { type: 'text', text: 'sales by month' },
        { type: 'image', data: new Uint8Array([137, 80, 78, 71]), mimeType: 'image/png' },
        { type: 'resource', uri: 'file:///tmp/sales.csv', text: 'month,sales' },
      ],
      structured: { months: 12 },
    };
  }
}
`;

describe('riverse tools run: rich results', () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({
      'agent/tools/plot.ts': PLOT_TOOL,
      'riverse.yaml': `mcp:\n  startup_timeout_ms: 60000\n  servers:\n    everything:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
    });
  });
  after(() => project?.remove());

  test('without --json: the text and a line per part on stdout; progress and log lines on stderr as they come', async () => {
    const result = await project.run(['tools', 'run', 'plot']);
    assert.equal(result.code, 0, show(result));
    assert.equal(
      result.stdout,
      'sales by month\n[image: image/png, 4 bytes]\n[resource: file:///tmp/sales.csv, 11 bytes]\n',
    );
    assert.equal(result.stderr, 'progress: 1/2 (50%) axes\nlog warning: no data for March\nprogress: 2/2 (100%)\n');
  });

  test('in Japanese, the part lines and progress are in Japanese', async () => {
    const result = await project.run(['tools', 'run', 'plot', '--lang', 'ja']);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /\[画像：image\/png、4 bytes\]/);
    assert.match(result.stderr, /^進捗：1\/2（50%） axes$/m);
  });

  test('--json: the whole result, parts included, bytes as base64', async () => {
    const result = await project.run(['tools', 'run', 'plot', '--json']);
    assert.equal(result.code, 0, show(result));
    const out = parseJson(result);
    assert.equal(out.data, 'sales by month');
    assert.deepEqual(out.content, [
      { type: 'text', text: 'sales by month' },
      { type: 'image', data: 'iVBORw==', mimeType: 'image/png' },
      { type: 'resource', uri: 'file:///tmp/sales.csv', text: 'month,sales' },
    ]);
    assert.deepEqual(out.structured, { months: 12 });
    assert.equal(result.stderr, '');
  });

  test("server-everything's image, resource and structured-content tools come through whole (--json)", async () => {
    const image = parseJson(await project.run(['tools', 'run', 'everything__get-tiny-image', '--json']));
    const part = image.content.find((item: { type: string }) => item.type === 'image');
    assert.equal(part.mimeType, 'image/png');
    assert.equal(Buffer.from(part.data, 'base64').subarray(1, 4).toString(), 'PNG');

    const resource = parseJson(
      await project.run([
        'tools',
        'run',
        'everything__get-resource-reference',
        'resourceType=Text',
        'resourceId=1',
        '--json',
      ]),
    );
    const embedded = resource.content.find((item: { type: string }) => item.type === 'resource');
    assert.match(embedded.uri, /^demo:\/\/resource\//);
    assert.equal(typeof embedded.text, 'string');

    const weather = parseJson(
      await project.run(['tools', 'run', 'everything__get-structured-content', 'location=Chicago', '--json']),
    );
    assert.equal(typeof weather.structured.temperature, 'number');
  });

  test("a server's progress reaches tools run as it comes", async () => {
    const result = await project.run([
      'tools',
      'run',
      'everything__trigger-long-running-operation',
      'duration=0.3',
      'steps=3',
    ]);
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /Long running operation completed/);
    // The last step's notice may come after the answer, which ends the call: the steps before it came as they went.
    // The server's own logs (it says when it got the client's roots) may come between them.
    const progress = result.stderr.split('\n').filter((line) => line.startsWith('progress:'));
    assert.deepEqual(progress.slice(0, 2), ['progress: 1/3 (33%)', 'progress: 2/3 (67%)'], result.stderr);
  });
});
