// `riverse chat` with a long_running tool, as a user runs it with input piped in: the call becomes a
// task (the reply comes at once), and when the chat ends its task ends with it, as interrupted,
// which `riverse tasks --all` then lists with its reason. A separate process, against a real local
// OpenAI-protocol server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFiles } from '../../assistant/turn-test-support.ts';
import type { ReplyHandler } from '../../models/testing/openai-wire.ts';
import { cliSetup, runRiverse } from '../assistant-cli-test-support.ts';
import { parseJson, show } from '../cli-test-support.ts';

const ENDLESS_REPORT = `import { BaseTool, ToolResult } from 'riverse';

export class EndlessReportTool extends BaseTool {
  manifest() {
    return { name: 'endless_report', description: 'Builds a report that takes very long', examples: ['Build the report', 'Make the big report'], long_running: 'optional' };
  }

  async execute(_params, context) {
    await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
    return ToolResult.fail('stopped');
  }
}
`;

const reportModel: ReplyHandler = (request) =>
  request.body.messages.at(-1)!.role === 'tool'
    ? { text: 'It is under way.' }
    : { toolCalls: [{ name: 'endless_report', arguments: {} }] };

describe('riverse chat with a long-running tool', () => {
  it('answers at once while the call runs as a task, and interrupts it when the chat ends', {
    timeout: 60_000,
  }, async (t) => {
    const setup = await cliSetup(t, reportModel);
    await writeFiles(setup.project, { 'agent/tools/endless-report.ts': ENDLESS_REPORT });
    const result = await runRiverse(['chat', '--session', 'long'], {
      cwd: setup.project,
      env: setup.env,
      input: 'Build the report\n',
    });
    assert.equal(result.code, 0, show(result));
    assert.match(result.stdout, /⚙ endless_report \{\} ✓/);
    assert.match(result.stdout, /It is under way\./);
    assert.match(
      String(setup.model.requests[1]!.body.messages.at(-1)!.content),
      /^endless_report is running as task [0-9a-f-]{36} and keeps running after this reply/,
    );
    const listed = await runRiverse(['tasks', '--all', '--json'], { cwd: setup.project, env: setup.env });
    assert.equal(listed.code, 0, show(listed));
    const [task] = parseJson(listed).tasks;
    assert.equal(task.tool, 'endless_report');
    assert.equal(task.status, 'interrupted');
    assert.equal(task.errorCode, 'interrupted');
    assert.match(task.statusMessage, /^Riverse stopped while this task was running/);
  });
});
