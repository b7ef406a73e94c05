// Rich results in a real browser (Debian's Chromium driven by playwright-core) at 1280×800 and
// 390×844, against the real service and the scripted OpenAI-protocol model: a drop-in tool that
// reports progress (without a total, then with one) and log lines while it runs, held at each step
// until the test has looked (a bounded wait), then returns an image, a sound, two resources and
// structured data. The card shows each, inside its width, in en, zh and ja; the tools page's run by
// hand shows them too; a flood of log lines stays capped. Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import { createProbe } from '../../tool-runtime/test-support.ts';
import { startTestService } from '../server-test-support.ts';
import { ARTIFACTS, openBrowser, openPage, skipWithoutChromium as skip } from './browser-test-support.ts';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * The tool, as a user writes it. With `wait` it stops after each report until the test calls
 * `step1`/`step2` on its probe (at most 20 s, so that a broken test cannot hang it).
 */
const RICH_TOOL = `import { BaseTool } from 'riverse';

/** A wide picture (1600×300), so that the card has to scale it down. */
const PICTURE = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="300"><rect width="1600" height="300" fill="#2563eb"/><circle cx="800" cy="150" r="120" fill="#facc15"/></svg>',
).toString('base64');

/** A tenth of a second of silence: a WAV file (8 kHz, 8-bit mono). */
function silentWav() {
  const samples = 800;
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const text = (at, value) => { for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i); };
  text(0, 'RIFF'); view.setUint32(4, 36 + samples, true); text(8, 'WAVE'); text(12, 'fmt ');
  view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true); view.setUint32(28, 8000, true); view.setUint16(32, 1, true);
  view.setUint16(34, 8, true); text(36, 'data'); view.setUint32(40, samples, true); bytes.fill(128, 44);
  return bytes;
}

export class RichReportTool extends BaseTool {
  manifest() {
    return {
      name: 'rich_report',
      description: 'Makes a weather report with a chart, a sound, files and the figures.',
      examples: ['make the weather report', 'report with a chart'],
      parameters: { wait: { type: 'boolean', description: 'hold at each step until the test says' } },
    };
  }
  async execute(params, context) {
    const probe = globalThis.__riverseProbes?.rich ?? {};
    const step = (name) => params.wait === true
      ? new Promise((resolve) => {
          const timer = setTimeout(resolve, 20_000);
          probe[name] = () => { clearTimeout(timer); resolve(); };
        })
      : Promise.resolve();
    const first = step('step1');
    context.progress(0, undefined, 'Fetching the stations');
    context.log('info', 'asked 3 stations');
    context.log('warning', 'station Porto answers slowly');
    context.log('error', 'station Faro did not answer');
    await first;
    const second = step('step2');
    context.progress(2, 4, 'Drawing the chart');
    context.log('debug', 'chart 1600×300');
    await second;
    const temperatures = Array.from({ length: 30 }, (_, day) => 14 + (day % 7));
    return {
      success: true,
      data: 'Lisbon: 30 days, mild.',
      content: [
        { type: 'text', text: 'Lisbon: 30 days, mild.' },
        { type: 'image', data: PICTURE, mimeType: 'image/svg+xml' },
        { type: 'audio', data: silentWav(), mimeType: 'audio/wav' },
        { type: 'resource', uri: 'file:///reports/summary.csv', mimeType: 'text/csv', text: 'day,celsius\\n1,14\\n2,15\\n' },
        { type: 'resource', uri: 'file:///reports/raw%20data.bin', blob: new Uint8Array([1, 2, 3, 4, 5]) },
      ],
      structured: { city: 'Lisbon', days: 30, temperatures, station: { name: 'Lisboa', position: { lat: 38.7, lon: -9.1 } } },
    };
  }
}
`;

/** What the card says, in each language (result-messages.js). */
const WORDS = {
  en: {
    download: 'Download summary.csv (22 B)',
    more: '22 more…',
    items: '30 items',
    warning: 'warning',
    count: '2 of 4',
  },
  zh: { download: '下载 summary.csv（22 B）', more: '还有 22 项…', items: '30 项', warning: '警告', count: '2 / 4' },
  ja: {
    download: 'summary.csv をダウンロード（22 B）',
    more: 'ほか 22 件…',
    items: '30 件',
    warning: '警告',
    count: '2 / 4',
  },
} as const;

type PageGlobals = { document: { documentElement: { scrollWidth: number } } };

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `rich-results-${name}.png`), fullPage: true });
}

/** Whether `inner` is visible and lies within `outer`'s width (nothing spills out of the card). */
async function within(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  return (
    (await inner.isVisible()) && a !== null && b !== null && a.x >= b.x - 0.5 && a.x + a.width <= b.x + b.width + 0.5
  );
}

test('rich results in Chromium: parts, a tree, progress and logs, at both widths and in three languages', {
  skip,
  timeout: 240_000,
}, async (t) => {
  const probe = createProbe('rich') as { step1?: () => void; step2?: () => void };
  const modelServer = await startOpenAITestServer((request) => {
    const messages = request.body.messages as { role: string; content?: unknown }[];
    const last = messages.at(-1)!;
    if (last.role === 'tool') return { text: 'Here is the report.' };
    return { toolCalls: [{ name: 'rich_report', arguments: { wait: true } }] };
  });
  t.after(() => modelServer.close());
  const service = await startTestService(t, {
    files: { 'rich-report.ts': RICH_TOOL },
    model: createOpenAICompatibleModel({ model: 'test-model', baseUrl: modelServer.url, maxRetries: 0 }),
  });
  const browser = await openBrowser(t);
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);

  /** Lets the tool go on past the step it waits at. */
  const release = (step: 'step1' | 'step2') => {
    const go = probe[step];
    assert.ok(go, `the tool waits at ${step}`);
    go();
  };
  const run = async (size: { width: number; height: number }, language: 'en' | 'zh' | 'ja') => {
    const words = WORDS[language];
    await page.setViewportSize(size);
    await page.goto('about:blank');
    await page.goto(`${service.url}#/chat`);
    await page.locator('#language-select').selectOption(language);
    await page.locator('.welcome').waitFor();
    probe.step1 = undefined;
    probe.step2 = undefined;
    await page.locator('#chat-input').fill('make the weather report');
    await page.locator('#chat-input').press('Enter');
    const card = page.locator('.tool-card', { hasText: 'rich_report' });

    // Running, no total yet: an indeterminate bar, the message, the log lines by level.
    const bar = card.locator('progress.call-progress-bar');
    await card.locator('.call-progress-message', { hasText: 'Fetching the stations' }).waitFor();
    assert.equal(await card.getAttribute('data-state'), 'running');
    assert.equal(await bar.evaluate((el) => (el as unknown as { position: number }).position), -1, 'indeterminate');
    assert.ok(await within(bar, card), 'the bar is inside the card');
    const lines = card.locator('.log-line');
    await lines.nth(2).waitFor();
    assert.deepEqual(
      await lines.evaluateAll((els) =>
        els.map((el) => (el as unknown as { dataset: { level: string } }).dataset.level),
      ),
      ['info', 'warning', 'error'],
    );
    assert.equal(await card.locator('.log-warning .log-level').textContent(), words.warning);
    const colours = await lines
      .locator('.log-level')
      .evaluateAll((els) =>
        els.map(
          (el) =>
            (globalThis as unknown as { getComputedStyle(el: object): { color: string } }).getComputedStyle(el).color,
        ),
      );
    assert.equal(new Set(colours).size, 3, `three levels, three colours: ${colours}`);
    assert.ok(await within(lines.nth(1), card), 'a log line is inside the card');
    await screenshot(page, `running-${language}-${size.width}`);
    release('step1');

    // With a total: the bar fills to 2 of 4.
    await card.locator('.call-progress-message', { hasText: 'Drawing the chart' }).waitFor();
    assert.deepEqual(
      await bar.evaluate((el) => {
        const progress = el as unknown as { value: number; max: number; position: number };
        return [progress.value, progress.max, progress.position];
      }),
      [2, 4, 0.5],
    );
    assert.equal(await card.locator('.call-progress-count').textContent(), words.count);
    await card.locator('.log-debug').waitFor();
    release('step2');

    // The result: every part inside the card.
    await page.locator('.message.assistant', { hasText: 'Here is the report.' }).waitFor();
    assert.equal(await card.getAttribute('data-state'), 'success');
    assert.equal(
      await card.evaluate((el) => (el as unknown as { open: boolean }).open),
      true,
      'opened for its pictures',
    );
    assert.equal(await bar.isVisible(), false, 'the bar goes when the call ends');
    assert.equal(await lines.count(), 4, 'the log stays to be read');
    const image = card.locator('.part-image img');
    await image.waitFor();
    const shown = await image.evaluate((el) => {
      const img = el as unknown as { naturalWidth: number; clientWidth: number; complete: boolean };
      return { natural: img.naturalWidth, width: img.clientWidth, complete: img.complete };
    });
    assert.equal(shown.natural, 1600, 'the picture loaded (the policy allows data: images)');
    assert.ok(shown.width < size.width && shown.width > 100, `scaled down to ${shown.width}px`);
    const audio = card.locator('.part-audio audio');
    assert.equal(await audio.getAttribute('controls'), '');
    assert.ok(
      await audio.evaluate(
        (el) =>
          new Promise<boolean>((resolve) => {
            const media = el as unknown as {
              readyState: number;
              duration: number;
              addEventListener(type: string, f: () => void): void;
            };
            if (media.readyState >= 1) resolve(media.duration > 0);
            media.addEventListener('loadedmetadata', () => resolve(media.duration > 0));
            media.addEventListener('error', () => resolve(false));
          }),
      ),
      'the sound loads (the policy allows data: media)',
    );
    const downloads = card.locator('a.part-download');
    assert.deepEqual(
      await downloads.evaluateAll((els) => els.map((el) => (el as unknown as { download: string }).download)),
      ['summary.csv', 'raw data.bin'],
    );
    assert.equal(await downloads.first().textContent(), words.download);
    assert.match(
      (await downloads.nth(1).getAttribute('href')) ?? '',
      /^data:application\/octet-stream;base64,AQIDBAU=$/,
    );
    const textResource = card.locator('.part-resource-text');
    assert.equal(await textResource.locator('pre').isVisible(), false, 'a text resource is folded');
    await textResource.locator('summary').click();
    assert.match((await textResource.locator('pre').textContent()) ?? '', /^day,celsius\n1,14/);
    assert.equal(await card.locator('.part-text').count(), 0, 'the text part is the result text already');

    const tree = card.locator('.json-tree');
    const temperatures = tree.locator('details.json-node', {
      has: page.locator(':scope > summary > .json-key', { hasText: /^temperatures$/ }),
    });
    assert.equal(await temperatures.locator(':scope > summary .json-count').textContent(), words.items);
    assert.equal(await temperatures.locator(':scope > .json-children > .json-leaf').count(), 8, 'the first 8 shown');
    const more = temperatures.locator(':scope > .json-children > .json-more > summary');
    assert.equal(await more.textContent(), words.more);
    await more.click();
    await temperatures.locator('.json-leaf').nth(29).waitFor(); // built when opened (its toggle event)
    assert.equal(await temperatures.locator('.json-leaf').count(), 30, 'the rest when asked');
    const position = tree.locator('details.json-node', {
      has: page.locator(':scope > summary > .json-key', { hasText: /^position$/ }),
    });
    assert.equal(
      await position.evaluate((el) => (el as unknown as { open: boolean }).open),
      false,
      'deep levels folded',
    );

    for (const [what, part] of [
      ['the image', card.locator('.part-image-open')],
      ['the sound', audio],
      ['a download', downloads.nth(1)],
      ['the text resource', textResource.locator('pre')],
      ['the tree', tree],
      ['the log', card.locator('.call-log-lines')],
    ] as const)
      assert.ok(await within(part, card), `${what} is inside the card at ${size.width}`);
    assert.ok(
      (await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth)) <=
        size.width,
      'no sideways scrolling',
    );
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, `result-${language}-${size.width}`);

    // A click on the picture opens it at full size; Escape closes it.
    await card.locator('.part-image-open').click();
    const viewer = page.locator('dialog.image-viewer[open]');
    await viewer.waitFor();
    assert.equal(
      await viewer.locator('img').evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
      1600,
    );
    await screenshot(page, `full-size-${language}-${size.width}`);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  };

  for (const language of ['en', 'zh', 'ja'] as const)
    for (const size of WIDTHS) await t.test(`${size.width}×${size.height} in ${language}`, () => run(size, language));

  await t.test('the tools page: a run by hand shows the parts and the tree', async () => {
    await page.setViewportSize(WIDTHS[1]);
    await page.goto('about:blank');
    await page.goto(`${service.url}#/tools`);
    await page.locator('#language-select').selectOption('en');
    const tool = page.locator('article[data-tool="rich_report"]');
    await tool.locator('.run-panel summary').click();
    await tool.locator('form.tool-form button[type="submit"]').click();
    const result = tool.locator('.run-result');
    await result.locator('.part-image img').waitFor();
    for (const part of [
      result.locator('.part-image-open'),
      result.locator('.part-audio audio'),
      result.locator('a.part-download').first(),
      result.locator('.json-tree'),
    ])
      assert.ok(await within(part, tool), 'inside the tool card');
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'run-by-hand-390');
  });

  await t.test('a flood of log lines stays capped, the latest in view', async () => {
    // The module as the page loads it, fed more lines than any throttle would let through.
    const counts = await page.evaluate(async () => {
      const g = globalThis as unknown as { document: { body: { append(node: unknown): void } } };
      const { callProgress } = await import(`${'/assets/'}call-progress.js`);
      const live = callProgress('flood');
      g.document.body.append(live.element);
      for (let index = 0; index < 1000; index++) live.log({ level: 'info', message: `line ${index}` });
      const box = live.element.querySelector('.call-log-lines');
      return {
        lines: box.querySelectorAll('.log-line').length,
        last: box.querySelector('.log-line:last-child .log-text').textContent,
        dropped: box.querySelector('.log-dropped').textContent,
        atEnd: box.scrollTop + box.clientHeight >= box.scrollHeight - 4,
        height: box.getBoundingClientRect().height,
      };
    });
    assert.equal(counts.lines, 200);
    assert.equal(counts.last, 'line 999');
    assert.equal(counts.dropped, '800 earlier lines not shown');
    assert.ok(counts.atEnd, 'scrolled to the latest line');
    assert.ok(counts.height < 200, `the box stays small (${counts.height}px)`);
  });

  assert.deepEqual(problems, []);
});
