// A tool's form-shaped question (context.ask with fields) as the dashboard shows it: Debian's
// Chromium driven by playwright-core at a phone's width (390 px), against the real service and the
// scripted OpenAI-protocol model. The tool says what it was answered.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import { toolSource } from '../../tool-runtime/test-support.ts';
import { startTestService } from '../server-test-support.ts';
import { ARTIFACTS, openBrowser, openPage, skipWithoutChromium } from './browser-test-support.ts';

const BOOK = toolSource('book_table', {
  execute: [
    "const answer = await context.ask('Book a table', {",
    '  fields: {',
    "    name: { type: 'string', title: 'Your name' },",
    "    guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 8, default: 2 },",
    "    room: { type: 'string', title: 'Where', oneOf: [{ const: 'in', title: 'Inside' }, { const: 'out', title: 'On the terrace' }], default: 'in' },",
    "    extras: { type: 'array', title: 'Extras', items: { anyOf: [{ const: 'cake', title: 'A cake' }, { const: 'view', title: 'A view' }] } },",
    "    dog: { type: 'boolean', title: 'With a dog' },",
    '  },',
    "  required: ['name'],",
    '});',
    "return ToolResult.ok(answer.answered ? 'booked ' + JSON.stringify(answer.values) : 'no answer: ' + answer.reason);",
  ].join('\n'),
});

test('a form question in Chromium at 390 px', { skip: skipWithoutChromium, timeout: 180_000 }, async (t) => {
  const modelServer = await startOpenAITestServer((request) => {
    const last = request.body.messages.at(-1)!;
    if (last.role === 'tool') return { text: `Tool said: ${String(last.content)}` };
    return { toolCalls: [{ name: 'book_table', arguments: {} }] };
  });
  t.after(() => modelServer.close());
  const service = await startTestService(t, {
    files: { 'book.ts': BOOK },
    model: createOpenAICompatibleModel({ model: 'm', baseUrl: modelServer.url, maxRetries: 0 }),
  });
  const browser = await openBrowser(t, { width: 390, height: 844 });
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);
  const send = async (text: string) => {
    await page.locator('#chat-input').fill(text);
    await page.locator('#chat-input').press('Enter');
  };

  await t.test(
    'the card is a form: a field each, labels and defaults as the tool gave them; it fits the width',
    async () => {
      await send('book a table');
      const card = page.locator('.question-card[data-state="pending"]');
      await card.waitFor();
      assert.equal(await card.locator('h3').textContent(), 'book_table asks you');
      // The call that asked says what it waits for (not a bare "Running…", read as an approval's wait).
      assert.equal(await page.locator('.tool-card summary .preview').last().textContent(), 'Waiting for your answer…');
      assert.equal(await card.locator('.question-text').textContent(), 'Book a table');
      assert.equal(await card.getByLabel('Guests').inputValue(), '2');
      const where = card.getByLabel('Where');
      assert.deepEqual(await where.locator('option').allTextContents(), ['(not set)', 'Inside', 'On the terrace']);
      assert.equal(await where.locator('option:checked').textContent(), 'Inside');
      assert.equal(await card.getByRole('checkbox', { name: 'A cake' }).isVisible(), true);
      const box = await card.boundingBox();
      assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 390, `the card fits 390 px: ${JSON.stringify(box)}`);
      const overflow = await page.evaluate(() => {
        const page = globalThis as unknown as {
          document: { documentElement: { scrollWidth: number } };
          innerWidth: number;
        };
        return page.document.documentElement.scrollWidth - page.innerWidth;
      });
      assert.ok(overflow <= 0, `no sideways scroll (${overflow} px too wide)`);
      // A field apart from the next: else the boolean below the extras reads as one more extra.
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        const gaps = await card.locator('.form-fields > .field').evaluateAll((fields) =>
          fields.slice(1).map((field, index) => {
            type Box = { getBoundingClientRect(): { top: number; bottom: number } };
            return (
              (field as unknown as Box).getBoundingClientRect().top -
              (fields[index] as unknown as Box).getBoundingClientRect().bottom
            );
          }),
        );
        assert.equal(gaps.length, 4);
        assert.ok(
          gaps.every((gap) => gap >= 8),
          `the fields are set apart at ${width} px: ${gaps.join(', ')} px`,
        );
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await mkdir(ARTIFACTS, { recursive: true });
      await card.screenshot({ path: join(ARTIFACTS, 'question-form-390.png') });
    },
  );

  await t.test('a required field left empty is named in the page, and nothing is sent', async () => {
    const card = page.locator('.question-card[data-state="pending"]');
    await card.getByRole('button', { name: 'Answer' }).click();
    await card.locator('.field-error:not([hidden])').first().waitFor();
    assert.equal(await card.getByLabel('Your name').getAttribute('aria-invalid'), 'true');
    assert.equal(await card.getAttribute('data-state'), 'pending');
  });

  await t.test('answered: the tool gets the values, defaults and choices included', async () => {
    const card = page.locator('.question-card[data-state="pending"]');
    await card.getByLabel('Your name').fill('Ada');
    await card.getByLabel('Where').selectOption({ label: 'On the terrace' });
    await card.getByRole('checkbox', { name: 'A view' }).check();
    await card.getByRole('checkbox', { name: 'With a dog' }).check();
    await card.getByRole('button', { name: 'Answer' }).click();
    await page.locator('.question-card[data-state="answered"]').waitFor();
    assert.notEqual(await page.locator('.tool-card summary .preview').last().textContent(), 'Waiting for your answer…');
    await page
      .locator('.message.assistant', {
        hasText: 'Tool said: booked {"name":"Ada","guests":2,"room":"out","extras":["view"],"dog":true}',
      })
      .waitFor();
  });

  await t.test('in Chinese: the card and its button', async () => {
    const fresh = await openPage(browser, `${service.url}#/chat`);
    await fresh.page.locator('#language-select').selectOption('zh');
    await fresh.page.locator('#chat-input').fill('订一张桌子');
    await fresh.page.locator('#chat-input').press('Enter');
    const card = fresh.page.locator('.question-card[data-state="pending"]');
    await card.waitFor();
    assert.equal(await card.locator('h3').textContent(), 'book_table 向你提问');
    await card.getByLabel('Your name').fill('阿达');
    await card.getByRole('button', { name: '回答' }).click();
    await fresh.page.locator('.question-card[data-state="answered"]').waitFor();
    assert.deepEqual(fresh.problems, []);
  });

  assert.deepEqual(problems, []);
});
