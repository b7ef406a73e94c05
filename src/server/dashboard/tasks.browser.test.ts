// Tasks in a real browser at 390×844, against the real service and the scripted OpenAI-protocol
// model: a chat's long_running call becomes a task; the tasks page lists it with its status and a
// progress bar, in the reader's language, within the screen's width; its cancel button cancels it;
// and a task that ends brings its result into the open conversation as it arrives.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { tempDir } from '../../assistant/turn-test-support.ts';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import { startTestService } from '../server-test-support.ts';
import { ARTIFACTS, openBrowser, openPage, skipWithoutChromium as skip } from './browser-test-support.ts';

/** `report({ name })`: says it is 1 of 4 along, then waits until the file `<go>-<name>` exists. */
const REPORT_TOOL = `import { existsSync } from 'node:fs';
import { BaseTool, ToolResult } from 'riverse';

export class ReportTool extends BaseTool {
  manifest() {
    return {
      name: 'report',
      description: 'Builds a long report',
      parameters: { name: { type: 'string', required: true, description: 'Which report' } },
      examples: ['Build the report', 'Make the yearly report'],
      long_running: 'optional',
    };
  }

  async execute(params, context) {
    context.progress(1, 4, 'gathering figures');
    while (!existsSync(context.config.go + '-' + params.name)) {
      if (context.signal.aborted) return ToolResult.fail('stopped');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return ToolResult.ok('Report ' + params.name + ' is ready: 12 pages.');
  }
}
`;

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth,
  );
}

test('tasks in Chromium at 390 px: listed with progress, cancelled, and a result arriving in the chat', {
  skip,
  timeout: 180_000,
}, async (t) => {
  // "report X" → report { name: X }; given its handle, the model says it started.
  const modelServer = await startOpenAITestServer((request) => {
    const messages = request.body.messages as { role: string; content?: unknown }[];
    const last = messages.at(-1)!;
    if (last.role === 'tool') return { text: 'It is under way.' };
    const name = /^report (\w+)/.exec(String(last.content))?.[1];
    return name === undefined ? { text: 'Hello.' } : { toolCalls: [{ name: 'report', arguments: { name } }] };
  });
  t.after(() => modelServer.close());
  const go = join(await tempDir(t, 'riverse-tasks-browser-'), 'go');
  const service = await startTestService(t, {
    files: { 'report.ts': REPORT_TOOL },
    yaml: `tools:\n  isolation: none\n  report:\n    go: ${JSON.stringify(go)}\n`,
    model: createOpenAICompatibleModel({ model: 'test-model', baseUrl: modelServer.url, maxRetries: 0 }),
  });
  const browser = await openBrowser(t, { width: 390, height: 844 });
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);
  await page.locator('.welcome').waitFor();
  const send = async (text: string) => {
    await page.locator('#chat-input').fill(text);
    await page.locator('#chat-input').press('Enter');
    await page.locator('.message.assistant', { hasText: 'It is under way.' }).last().waitFor();
  };
  await send('report alpha');
  // The call's card says it runs on as a task, not that it ended.
  assert.equal(await page.locator('.tool-card[data-state="task"] .badge').textContent(), 'Running as a task');
  await send('report beta');

  await page.goto(`${service.url}#/tasks`);
  const rows = page.locator('.task');
  await rows.nth(1).waitFor();
  assert.equal(await page.locator('#page-tasks h1').textContent(), 'Tasks');
  assert.equal(await page.locator('#page-tasks .page-header p.muted').last().textContent(), '2 running');
  const first = rows.first();
  assert.equal(await first.locator('.badge').textContent(), 'Working');
  const bar = first.locator('progress');
  assert.equal(await bar.getAttribute('max'), '4');
  assert.equal(await bar.evaluate((el: object) => (el as { value: number }).value), 1);
  assert.equal(await first.locator('.task-progress .muted').textContent(), 'gathering figures');
  assert.ok((await pageWidth(page)) <= 390, `the page is ${await pageWidth(page)} px wide`);
  const cancelBox = await first.getByRole('button', { name: 'Cancel' }).boundingBox();
  assert.ok(cancelBox !== null && cancelBox.x + cancelBox.width <= 390.5, 'the cancel button is on the screen');
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'tasks-390.png') });

  // In Japanese, then cancelled from its button (the newest first: beta).
  await page.locator('#language-select').selectOption('ja');
  assert.equal(await first.locator('.badge').textContent(), '実行中');
  await first.getByRole('button', { name: '取り消す' }).click();
  await page.locator('.task.cancelled .badge', { hasText: '取り消し済み' }).waitFor();
  assert.equal(await page.locator('.task.working').count(), 1, 'the other one still runs');
  const cancelled = (await service.context.tasks.list({ status: 'cancelled' }))[0]!;
  assert.equal(cancelled.arguments.name, 'beta');
  await page.locator('#language-select').selectOption('en');

  // Back in the chat, alpha ends: its result arrives in the conversation, said to be one.
  const [session] = await service.context.store.listSessions(); // both reports were asked in one chat
  await page.goto(`${service.url}#/chat/${encodeURIComponent(session!.name)}`);
  await page.locator('.message.assistant', { hasText: 'It is under way.' }).first().waitFor();
  writeFileSync(`${go}-alpha`, '');
  const arrived = page.locator('.message.task-result', { hasText: 'Report alpha is ready: 12 pages.' });
  await arrived.waitFor();
  assert.match(
    (await arrived.locator('.task-result-head').textContent()) ?? '',
    /^Result of report arrived \(task [0-9a-f-]{36}\)$/,
  );
  // Reloaded, the history shows it the same way, and the calls' cards still say they ran as tasks.
  await page.reload();
  await page.locator('.message.task-result', { hasText: 'Report alpha is ready' }).waitFor();
  assert.equal(await page.locator('.tool-card[data-state="task"]').count(), 2);
  assert.ok((await pageWidth(page)) <= 390, 'no sideways scrolling in the chat');
  await page.screenshot({ path: join(ARTIFACTS, 'tasks-arrived-390.png') });
  assert.deepEqual(problems, []);
});
