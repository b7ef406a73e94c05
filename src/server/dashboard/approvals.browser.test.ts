// The approval card in a real browser: Debian's Chromium driven by playwright-core, against the
// real service and the scripted OpenAI-protocol model. A tool that appends to a file says whether
// it ran: approved once, denied with a reason, always for the session, and in another language.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import { tempDir, toolSource } from '../../tool-runtime/test-support.ts';
import { startTestService } from '../server-test-support.ts';
import { openBrowser, openPage, skipWithoutChromium } from './browser-test-support.ts';

const NOTE = toolSource('write_note', {
  header: "import { appendFileSync } from 'node:fs';",
  manifest: "parameters: { text: { type: 'string', required: true, description: 'the note' } }, approval: 'always',",
  execute:
    "appendFileSync(context.config.log_file, params.text + '\\n'); return ToolResult.ok('written: ' + params.text);",
});

test('approval cards in Chromium', { skip: skipWithoutChromium, timeout: 180_000 }, async (t) => {
  // "note X" → write_note { text: X }; given its result, the model says so.
  const modelServer = await startOpenAITestServer((request) => {
    const last = request.body.messages.at(-1)!;
    if (last.role === 'tool') return { text: `Tool said: ${String(last.content)}` };
    return { toolCalls: [{ name: 'write_note', arguments: { text: String(last.content).replace(/^note /, '') } }] };
  });
  t.after(() => modelServer.close());
  const dir = await tempDir(t);
  const log = join(dir, 'notes.log');
  const notes = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
      : [];
  const service = await startTestService(t, {
    files: { 'note.ts': NOTE },
    yaml: `tools:\n  isolation: none\n  write_note:\n    log_file: ${JSON.stringify(log)}\n`,
    model: createOpenAICompatibleModel({ model: 'm', baseUrl: modelServer.url, maxRetries: 0 }),
  });

  const browser = await openBrowser(t, null);
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);
  const send = async (text: string) => {
    await page.locator('#chat-input').fill(text);
    await page.locator('#chat-input').press('Enter');
  };

  await t.test('approve once: the card shows the call, nothing runs before the click, then it runs', async () => {
    await send('note milk');
    const card = page.locator('.approval-card[data-state="pending"]');
    await card.waitFor();
    assert.equal(await card.locator('h3').textContent(), 'write_note asks to run');
    assert.match((await card.locator('.tool-params').textContent()) ?? '', /"text": "milk"/);
    assert.deepEqual(notes(), []);
    await card.getByRole('button', { name: 'Approve once' }).click();
    await page.locator('.approval-card[data-state="approved"]').waitFor();
    await page.locator('.tool-card[data-state="success"]').waitFor();
    await page.locator('.message.assistant', { hasText: 'Tool said: written: milk' }).waitFor();
    assert.deepEqual(notes(), ['milk']);
  });

  await t.test('deny with a reason: it does not run, and the model reads the reason', async () => {
    await send('note beer');
    const card = page.locator('.approval-card[data-state="pending"]');
    await card.waitFor();
    await card.getByRole('textbox', { name: 'Reason (optional, the assistant reads it)' }).fill('no beer today');
    await card.getByRole('button', { name: 'Deny' }).click();
    await page.locator('.approval-card[data-state="denied"]').waitFor();
    await page.locator('.message.assistant', { hasText: 'Their reason: "no beer today"' }).waitFor();
    assert.deepEqual(notes(), ['milk']);
  });

  await t.test('always for this session: this call and the next run, the next without a card', async () => {
    await send('note bread');
    await page
      .locator('.approval-card[data-state="pending"]')
      .getByRole('button', { name: 'Always for this session' })
      .click();
    await page.locator('.message.assistant', { hasText: 'written: bread' }).waitFor();
    await send('note eggs');
    await page.locator('.message.assistant', { hasText: 'written: eggs' }).waitFor();
    assert.equal(await page.locator('.approval-card').count(), 3, 'no card for eggs');
    assert.deepEqual(notes(), ['milk', 'bread', 'eggs']);
  });

  await t.test(
    'a reload while a call waits: the card is back from GET /api/approvals, and approving it runs the call',
    async () => {
      await page.locator('[data-action="new-chat"]').click();
      await send('note tea');
      await page.locator('.approval-card[data-state="pending"]').waitFor();
      await page.waitForURL(/#\/chat\/.+/);
      await page.reload();
      const card = page.locator('.approval-card[data-state="pending"]');
      await card.waitFor();
      assert.match((await card.locator('.tool-params').textContent()) ?? '', /"text": "tea"/);
      assert.deepEqual(notes(), ['milk', 'bread', 'eggs']);
      await card.getByRole('button', { name: 'Approve once' }).click();
      await page.locator('.approval-card[data-state="approved"]').waitFor();
      assert.deepEqual(notes(), ['milk', 'bread', 'eggs', 'tea']);
    },
  );

  await t.test(
    'an approval asked by a turn this page does not stream (another tab, another replica) shows live, and answering it here runs the call',
    async () => {
      const session = decodeURIComponent(page.url().split('#/chat/')[1]!);
      // Another client's turn in the same conversation (as a tab on another replica would send it).
      const other = await fetch(`${service.url}api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session, message: 'note coffee' }),
      });
      assert.equal(other.status, 200);
      const otherDone = other.text();
      const card = page.locator('.approval-card[data-state="pending"]', { hasText: 'coffee' });
      await card.waitFor();
      await card.getByRole('button', { name: 'Approve once' }).click();
      await page.locator('.approval-card[data-state="approved"]', { hasText: 'coffee' }).waitFor();
      assert.match(await otherDone, /written: coffee/);
      assert.deepEqual(notes(), ['milk', 'bread', 'eggs', 'tea', 'coffee']);
    },
  );

  await t.test('in Japanese: the card and its buttons', async () => {
    await page.locator('[data-action="new-chat"]').click();
    await page.locator('#language-select').selectOption('ja');
    await send('note 牛乳');
    const card = page.locator('.approval-card[data-state="pending"]');
    await card.waitFor();
    assert.equal(await card.locator('h3').textContent(), 'write_note が実行の許可を求めています');
    await card.getByRole('button', { name: '今回だけ許可' }).click();
    await page.locator('.message.assistant', { hasText: 'written: 牛乳' }).waitFor();
    assert.deepEqual(notes(), ['milk', 'bread', 'eggs', 'tea', 'coffee', '牛乳']);
    await page.locator('#language-select').selectOption('en');
  });

  await t.test('the tools page says which tool asks first', async () => {
    await page.goto(`${service.url}#/tools`);
    const card = page.locator('article[data-tool="write_note"]');
    await card.locator('.badge', { hasText: 'Asks first' }).waitFor();
    assert.equal(await card.locator('.badge', { hasText: 'Asks first' }).isVisible(), true);
  });

  assert.deepEqual(problems, []);
});
