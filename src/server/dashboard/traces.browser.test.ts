// The traces page's pictures in Chromium (playwright-core), against the real service and the
// scripted OpenAI-protocol model: a turn whose first request is refused (503, retried), with two
// calls (one waiting for a person's approval, one reporting progress and returning a picture),
// drawn as a waterfall; a chart per tool; a reply's link opening its trace; at 1280×800 and
// 390×844, in en, zh and ja, with screenshots in test-artifacts/.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import { PNG_BASE64 } from '../../models/testing/test-image.ts';
import { toolSource } from '../../tool-runtime/test-support.ts';
import { startTestService } from '../server-test-support.ts';
import {
  ARTIFACTS,
  openBrowser,
  openPage,
  PAGE_LANGUAGES,
  skipWithoutChromium,
  WIDTHS,
} from './browser-test-support.ts';

const NOTE = toolSource('write_note', {
  manifest: "parameters: { text: { type: 'string', required: true, description: 'the note' } }, approval: 'always',",
  execute: "return ToolResult.ok('written: ' + params.text);",
});
const PICTURE = toolSource('draw_chart', {
  execute: `for (let step = 1; step <= 3; step++) context.progress(step, 3, 'drawing part ' + step);
    return { success: true, data: 'a chart', content: [{ type: 'text', text: 'a chart' }, { type: 'image', data: ${JSON.stringify(PNG_BASE64)}, mimeType: 'image/png' }] };`,
});
const FLAKY = toolSource('flaky_lookup', { execute: "return ToolResult.fail('the lookup service is down');" });

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, `traces-${name}.png`), fullPage: true });
}

type Scroll = { document: { documentElement: { scrollWidth: number } } };
const pageWidth = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Scroll).document.documentElement.scrollWidth);

test('the traces page in Chromium: waterfall, charts, a reply linked to its trace', {
  skip: skipWithoutChromium,
  timeout: 240_000,
}, async (t) => {
  // "note and draw": refused once (503), then both calls; given their results, an answer.
  // "look up": a call that fails, then an answer.
  let refused = false;
  const modelServer = await startOpenAITestServer((request) => {
    const last = request.body.messages.at(-1)!;
    if (last.role === 'tool') return { text: `Done: ${String(last.content).slice(0, 40)}` };
    const text = String(last.content);
    if (text.startsWith('note')) {
      if (!refused) {
        refused = true;
        return { status: 503, error: 'the model is busy' };
      }
      return {
        toolCalls: [
          { id: 'call_note', name: 'write_note', arguments: { text: 'milk' } },
          { id: 'call_draw', name: 'draw_chart', arguments: {} },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      };
    }
    if (text.startsWith('look')) return { toolCalls: [{ id: 'call_flaky', name: 'flaky_lookup', arguments: {} }] };
    if (text.startsWith('break')) return { status: 400, error: 'this request cannot be answered' };
    return { text: 'Hello.' };
  });
  t.after(() => modelServer.close());
  const service = await startTestService(t, {
    files: { 'note.ts': NOTE, 'draw.ts': PICTURE, 'flaky.ts': FLAKY },
    yaml: 'tools:\n  isolation: none\n',
    model: createOpenAICompatibleModel({ model: 'm', baseUrl: modelServer.url, maxRetries: 1, retryDelayMs: 20 }),
  });
  const browser = await openBrowser(t, { width: 1280, height: 800 });
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);
  const send = async (text: string) => {
    await page.locator('#chat-input').fill(text);
    await page.locator('#chat-input').press('Enter');
  };

  await t.test(
    'before any turn: the turns and the charts say there is nothing yet, and a filter says none match',
    async () => {
      await page.goto(`${service.url}#/traces`);
      await page.locator('.turn-list .empty', { hasText: 'No turns yet.' }).waitFor();
      await page.locator('.charts-box .empty', { hasText: 'No tool calls in this period.' }).waitFor();
      await page.locator('#trace-outcome').selectOption('failure');
      await page.locator('.turn-list .empty', { hasText: 'No turns match.' }).waitFor();
      await page.locator('#trace-outcome').selectOption('');
      await page.locator('.turn-list .empty', { hasText: 'No turns yet.' }).waitFor();
      // A link to a trace that is no longer kept says so.
      await page.goto(`${service.url}#/traces/no-such-turn`);
      await page.locator('.turn-list .turn-gone', { hasText: 'This trace is no longer kept' }).waitFor();
      await page.goto(`${service.url}#/chat`);
    },
  );

  await t.test('a reply links to its trace, which opens as a waterfall: the retry, the wait, two calls', async () => {
    await send('note milk and draw a chart');
    const card = page.locator('.approval-card[data-state="pending"]');
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve once' }).click();
    const reply = page.locator('.message.assistant', { hasText: 'Done:' });
    await reply.waitFor();
    const link = reply.locator('a.reply-trace');
    await link.waitFor();
    assert.equal(await link.textContent(), 'How this reply was made');
    await link.click();
    await page.waitForURL(/#\/traces\/.+/);
    const turnId = decodeURIComponent(page.url().split('#/traces/')[1] ?? '');
    const turn = page.locator(`details.turn[data-turn="${turnId}"]`);
    await turn.locator('.waterfall').waitFor();
    assert.equal(await turn.evaluate((element: { open: boolean }) => element.open), true, 'opened by the link');
    const rows = turn.locator('.wf-row');
    const kinds = await rows.evaluateAll((all) =>
      all.map((row) => (row as unknown as { dataset: { kind: string } }).dataset.kind),
    );
    assert.deepEqual(kinds, [
      'turn',
      'routing',
      'model-request',
      'model-request',
      'tool-call',
      'approval',
      'tool-call',
      'model-request',
    ]);
    assert.equal(
      await turn.locator('.wf-row[data-kind="tool-call"]').first().locator('.wf-name').textContent(),
      'write_note',
      'the approval right under its call',
    );
    const refusedRow = turn.locator('.wf-row[data-kind="model-request"][data-status="error"]');
    assert.equal(await refusedRow.count(), 1);
    assert.match((await refusedRow.textContent()) ?? '', /Model request 1[\s\S]*failed: server-error/);
    const retry = turn.locator('.wf-row[data-retry="true"]');
    assert.match(
      (await retry.textContent()) ?? '',
      /Retry 2 of request 1[\s\S]*first token after[\s\S]*120 in · 30 out/,
    );
    assert.equal(await retry.locator('.wf-wait').count(), 1, "the retry's delay is hatched in its bar");
    assert.equal(await retry.locator('.wf-ttft').count(), 1, 'the first token is marked');
    const note = turn.locator('.wf-row[data-kind="tool-call"]', { hasText: 'write_note' });
    assert.equal(await note.locator('.wf-wait').count(), 1, 'the approval wait is hatched in the call');
    assert.match(
      (await turn.locator('.wf-row[data-kind="approval"]').textContent()) ?? '',
      /Waiting for approval[\s\S]*approved/,
    );
    // The bars sit on one axis: the answer's request starts after both calls end.
    const box = async (row: ReturnType<Page['locator']>) => (await row.locator('.wf-bar').boundingBox())!;
    const draw = turn.locator('.wf-row[data-kind="tool-call"]', { hasText: 'draw_chart' });
    const answer = turn.locator('.wf-row[data-kind="model-request"]').last();
    const [noteBox, drawBox, answerBox] = [await box(note), await box(draw), await box(answer)];
    assert.ok(answerBox.x + 1 >= Math.max(noteBox.x + noteBox.width, drawBox.x + drawBox.width) - 1);

    // Pointing at the picture's call shows its attributes, its kept picture and its progress.
    await draw.hover();
    const detail = turn.locator('.wf-detail');
    await detail.locator('h4', { hasText: 'Details of execute_tool draw_chart' }).waitFor();
    assert.match(
      (await detail.textContent()) ?? '',
      /gen_ai\.tool\.name[\s\S]*draw_chart[\s\S]*riverse\.outcome[\s\S]*success/,
    );
    assert.equal(await detail.locator('.wf-parts img').count(), 1, 'the picture kept in the trace');
    assert.ok((await detail.locator('.wf-progress li').count()) >= 1);
    assert.match((await detail.locator('.wf-progress li').last().textContent()) ?? '', /3\/3 drawing part 3/);
    // Tapping (a click) another row shows that one.
    await refusedRow.click();
    await detail.locator('h4', { hasText: 'Details of chat m' }).waitFor();
    assert.match((await detail.textContent()) ?? '', /error \(server-error\)/);
    await draw.click();
    await turn.evaluate((element: { scrollIntoView(): void }) => element.scrollIntoView());
    await screenshot(page, 'waterfall');
  });

  await t.test('a chart per tool: calls over time, p50 and p95, the share that failed', async () => {
    await page.goto(`${service.url}#/chat`);
    await send('look up the weather');
    await page.locator('.message.assistant', { hasText: 'Done:' }).waitFor();
    await page.locator('.message.assistant a.reply-trace').waitFor();
    // A tool with a history: 48 calls over the last six hours, slower and failing more in the last two.
    const { store } = service.context;
    const history = (await store.session('history')).id;
    for (let index = 0; index < 48; index++) {
      const late = index >= 32;
      await store.recordToolCall({
        sessionId: history,
        turnId: `old-${index}`,
        callId: `c${index}`,
        tool: 'city_weather',
        params: {},
        success: !(late ? index % 3 === 0 : index % 11 === 0),
        data: 'ok',
        durationMs: (late ? 400 : 120) + ((index * 37) % 90),
        startedAt: new Date(Date.now() - (6 * 3_600_000 * (48 - index)) / 48).toISOString(),
      });
    }
    await page.locator('.nav a[data-page="traces"]').click();
    const weather = page.locator('.tool-chart[data-tool="city_weather"]');
    await weather.waitFor();
    assert.match(
      (await weather.locator('.chart-figures').textContent()) ?? '',
      /^48 calls · p50 \d+ ms · p95 \d+ ms · \d+(\.\d)?% failed$/,
    );
    assert.ok((await weather.locator('rect.chart-bar').count()) >= 20, 'bars across the window');
    assert.ok((await weather.locator('rect.chart-bar-failed').count()) >= 3);
    assert.equal(
      await page.locator('.tool-chart').first().getAttribute('data-tool'),
      'city_weather',
      'the most called first',
    );
    await weather.screenshot({ path: join(ARTIFACTS, 'traces-chart-city-weather.png') });
    const flaky = page.locator('.tool-chart[data-tool="flaky_lookup"]');
    await flaky.waitFor();
    assert.match(
      (await flaky.locator('.chart-figures').textContent()) ?? '',
      /^1 call · p50 \d+ ms · p95 \d+ ms · 100% failed$/,
    );
    assert.equal(await flaky.locator('rect.chart-bar-failed').count(), 1);
    const note = page.locator('.tool-chart[data-tool="write_note"]');
    assert.match((await note.locator('.chart-figures').textContent()) ?? '', /· 0% failed$/);
    assert.equal(await note.locator('polyline.chart-p95').count(), 1);
    assert.match((await note.locator('svg').getAttribute('aria-label')) ?? '', /^Calls of write_note from .+: 1 call/);
    // The filter by tool chooses the charts and the turns too.
    await page.locator('#trace-tool').selectOption('flaky_lookup');
    await page.locator('.tool-chart[data-tool="write_note"]').waitFor({ state: 'detached' });
    assert.equal(await page.locator('details.turn').count(), 1);
    await page.locator('#trace-tool').selectOption('');
    await page.locator('details.turn').nth(1).waitFor();
    assert.equal(await page.locator('details.turn').count(), 2);
    await screenshot(page, 'charts');
  });

  await t.test("a session's history links each reply to its own turn", async () => {
    const session = await page.evaluate(async () => {
      const { sessions } = (await (await fetch('/api/sessions')).json()) as { sessions: { name: string }[] };
      return sessions.map((one) => one.name);
    });
    session.splice(session.indexOf('history'), 1); // the calls written for the chart, with no turns
    assert.equal(session.length, 2);
    const turns = new Set<string>();
    for (const name of session) {
      await page.goto(`${service.url}#/chat/${encodeURIComponent(name)}`);
      const link = page.locator('.message.assistant a.reply-trace');
      await link.waitFor();
      assert.equal(await link.count(), 1, 'one link per turn, under its last reply');
      turns.add((await link.getAttribute('data-turn')) ?? '');
    }
    assert.equal(turns.size, 2);
    const shown = (await page.locator('.message.assistant a.reply-trace').getAttribute('data-turn')) ?? '';
    await page.locator('.message.assistant a.reply-trace').click();
    await page.locator(`details.turn[open][data-turn="${shown}"] .waterfall`).waitFor();
  });

  await t.test('a turn with no reply links to its trace too: it says why', async () => {
    await page.goto(`${service.url}#/chat`);
    await send('break, please');
    await page.locator('.message.note.error').waitFor();
    const link = page.locator('li.turn-trace a.reply-trace');
    await link.waitFor();
    assert.equal(await link.textContent(), 'What happened in this turn');
    await link.click();
    const turnId = decodeURIComponent(page.url().split('#/traces/')[1] ?? '');
    const failed = page.locator(`details.turn[open][data-turn="${turnId}"]`);
    await failed
      .locator('.wf-row[data-kind="model-request"][data-status="error"]', { hasText: 'bad-request' })
      .waitFor();
    assert.equal(await failed.locator('.badge').first().textContent(), 'Failed');
    // The session read again: the link is still there, where the turn ended.
    const name = await page.evaluate(async () => {
      const { sessions } = (await (await fetch('/api/sessions')).json()) as { sessions: { name: string }[] };
      return sessions[0]?.name ?? '';
    });
    await page.goto(`${service.url}#/chat/${encodeURIComponent(name)}`);
    await page.reload(); // the history as stored, not the page's own notes of the turn
    await page.locator(`li.turn-trace a.reply-trace[data-turn="${turnId}"]`).waitFor();
    assert.equal(
      await page
        .locator('.transcript > li')
        .evaluateAll((items) => items.map((item) => (item as unknown as { className: string }).className))
        .then((classes) => classes.join(' | ')),
      'message user | turn-trace',
    );
  });

  await t.test('a turn opened by its address shows its row below the header; the rows line up', async () => {
    const ids = await page.evaluate(async () => {
      const { traces } = (await (await fetch('/api/traces/turns')).json()) as { traces: { id: string }[] };
      return traces.map((trace) => trace.id);
    });
    assert.ok(ids.length >= 3);
    type Box = { getBoundingClientRect(): { top: number; bottom: number; left: number } };
    for (const language of PAGE_LANGUAGES)
      for (const { width, height } of WIDTHS) {
        await page.setViewportSize({ width, height });
        await page.locator('#language-select').selectOption(language);
        const where = `at ${width} px in ${language}`;
        // The oldest turn, opened as a reply's link opens it: its summary (how it ended, when) in sight.
        await page.goto('about:blank'); // a fresh load, as a link opened in a new tab: not a change of hash
        await page.goto(`${service.url}#/traces/${ids.at(-1)}`);
        const summary = page.locator(`details.turn[open][data-turn="${ids.at(-1)}"] > summary`);
        await summary.locator('xpath=..').locator('.waterfall').waitFor();
        const [barBottom, top] = await Promise.all([
          page.locator('.topbar').evaluate((bar) => (bar as unknown as Box).getBoundingClientRect().bottom),
          summary.evaluate((element) => (element as unknown as Box).getBoundingClientRect().top),
        ]);
        assert.ok(
          top >= barBottom,
          `the opened turn's summary (top ${top}) is under the header (bottom ${barBottom}) ${where}`,
        );
        // A succeeded and a failed turn: their times start at the same place, whatever the badge says.
        const starts = await page
          .locator('details.turn > summary .when')
          .evaluateAll((all) =>
            all.map((element) => Math.round((element as unknown as Box).getBoundingClientRect().left)),
          );
        assert.equal(new Set(starts).size, 1, `the rows' times line up ${where}: ${starts.join(', ')}`);
        // So do the tool calls' rows: their tools, and (on a wide screen) their times.
        for (const column of width > 760 ? ['.tool-name', '.when'] : ['.tool-name']) {
          const lefts = await page
            .locator(`details.trace > summary ${column}`)
            .evaluateAll((all) =>
              all.map((element) => Math.round((element as unknown as Box).getBoundingClientRect().left)),
            );
          assert.equal(
            new Set(lefts).size,
            1,
            `the tool calls' ${column} line up ${where}: ${[...new Set(lefts)].join(', ')}`,
          );
        }
      }
    await page.locator('#language-select').selectOption('en');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await t.test('at 390 px and in zh and ja: no sideways scroll; labels above their bars', async () => {
    await page.goto(`${service.url}#/traces`);
    const turn = page.locator('details.turn', { hasText: 'write_note' });
    if (!(await turn.evaluate((element: { open: boolean }) => element.open))) await turn.locator('summary').click();
    await turn.locator('.waterfall').waitFor();
    for (const [language, title, retry, charts, failed] of [
      ['zh', '对话轮次', '请求 1 的第 2 次尝试', '按工具', /^1 次调用 · p50 \d+ ms · p95 \d+ ms · 100% 失败$/],
      ['ja', 'ターン', 'リクエスト 1 の 2 回目', 'ツール別', /^1 回 · p50 \d+ ms · p95 \d+ ms · 失敗 100%$/],
      ['en', 'Turns', 'Retry 2 of request 1', 'By tool', /^1 call · p50 \d+ ms · p95 \d+ ms · 100% failed$/],
    ] as const) {
      await page.locator('#language-select').selectOption(language);
      assert.equal(await page.locator('#turns-title').textContent(), title);
      assert.equal(await page.locator('#tool-charts-title').textContent(), charts);
      assert.match(
        (await page.locator('.tool-chart[data-tool="flaky_lookup"] .chart-figures').textContent()) ?? '',
        failed,
      );
      await turn.locator('.wf-row[data-retry="true"] .wf-name', { hasText: retry }).waitFor();
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        assert.ok((await pageWidth(page)) <= width, `no sideways scroll at ${width} px in ${language}`);
        await turn.locator('.wf-row').first().waitFor();
        await screenshot(page, `${width}-${language}`);
        await turn.screenshot({ path: join(ARTIFACTS, `traces-turn-${width}-${language}.png`) });
      }
      // On a phone the label sits above its bar, and the bar has the row's width.
      const row = turn.locator('.wf-row[data-kind="tool-call"]').first();
      const [label, track] = [
        await row.locator('.wf-label').boundingBox(),
        await row.locator('.wf-track').boundingBox(),
      ];
      assert.ok(label && track && track.y >= label.y + label.height - 1, 'the label above the bar');
      assert.ok(track.width > 300, 'the bar has the width');
      const summary = (await turn.locator('summary').boundingBox())!;
      assert.ok(summary.width <= 390);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  await t.test('in the dark scheme: the same page, its colours from the scheme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const turn = page.locator('details.turn', { hasText: 'write_note' });
    await turn.locator('.waterfall').waitFor();
    await screenshot(page, 'dark');
    await turn.screenshot({ path: join(ARTIFACTS, 'traces-turn-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  assert.deepEqual(problems, []);
});
