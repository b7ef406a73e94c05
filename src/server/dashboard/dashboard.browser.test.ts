// The dashboard in a real browser: Debian's Chromium driven by playwright-core, against the real
// service (real store and tool files in a temp folder) and the scripted OpenAI-protocol model
// server. A person chats and watches a tool card, switches a tool off and on, runs one from its
// form, reads the traces, switches the language, signs in with the token, and downloads the
// default model (from a stand-in for the model hub) with a progress bar. Screenshots of each page
// go to test-artifacts/.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { tinyGguf } from '../../models/providers/local/gguf/write-tiny-gguf.ts';
import { installCommand } from '../../models/providers/local/local-llama-install.ts';
import { hasNodeLlamaCpp } from '../../models/providers/local/local-llama-runtime.ts';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import { startTestService } from '../server-test-support.ts';
import {
  ARTIFACTS,
  openBrowser,
  openPage,
  PAGE_LANGUAGES,
  type PageLanguage,
  pageSays,
  skipWithoutChromium as skip,
  WIDTHS,
} from './browser-test-support.ts';
import { createProbe, probeRef } from '../../tool-runtime/test-support.ts';
import { useFakeModelHub } from '../testing/fake-model-hub.ts';

const WEATHER_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class WeatherReportTool extends BaseTool {
  manifest() {
    return {
      name: 'weather_report',
      description: 'Reports the weather of a city for the coming days',
      parameters: {
        city: { type: 'string', required: true, description: 'The city' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit' },
        days: { type: 'integer', description: 'How many days' },
        hourly: { type: 'boolean', description: 'Hour by hour' },
      },
      examples: ['Weather in Oslo?', 'Will it rain in Kyoto tomorrow?'],
    };
  }

  async execute(params) {
    if (params.city === 'Atlantis') return ToolResult.fail('There is no city called Atlantis');
    return ToolResult.ok(\`Sunny in \${params.city}, 21 \${params.unit ?? 'celsius'}, for \${params.days ?? 1} day(s)\${params.hourly ? ', hourly' : ''}\`);
  }
}
`;

const UNAVAILABLE_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class StockQuoteTool extends BaseTool {
  manifest() {
    return { name: 'stock_quote', description: 'Looks up a stock price', parameters: { symbol: 'The ticker' }, examples: ['Price of ACME?', 'How is ACME doing?'] };
  }
  isAvailable() {
    return false;
  }
  async execute() {
    return ToolResult.ok('');
  }
}
`;

/** The slice of the page's globals the functions run in it use (this project's types have no DOM). */
type PageGlobals = {
  document: {
    documentElement: { scrollWidth: number };
    querySelector(selector: string): { value: number; max: number; hasAttribute(name: string): boolean } | null;
    querySelectorAll(selector: string): Iterable<{
      id: string;
      textContent: string | null;
      outerHTML: string;
      getAttribute(name: string): string | null;
      closest(selector: string): object | null;
    }>;
  };
};

/** Waits for the test to let it go (the probe's `release`), so that the page can be seen while it runs. */
const GATED_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class SlowLookupTool extends BaseTool {
  manifest() {
    return { name: 'slow_lookup', description: 'Looks something up, slowly', parameters: { topic: 'What to look up' }, examples: ['Look up tides slowly', 'Slowly find the tides'] };
  }
  async execute(params) {
    await ${probeRef('dashboard-gate')}.released;
    return ToolResult.ok('Found: ' + params.topic);
  }
}
`;

const ECHO_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class EchoTextTool extends BaseTool {
  manifest() {
    return { name: 'echo_text', description: 'Says the text back', parameters: { text: { type: 'string', required: true, description: 'What to say' } }, examples: ['Echo hello', 'Say it back'] };
  }
  async execute(params) {
    return ToolResult.ok(params.text);
  }
}
`;

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  // From the top: a full-page shot of a scrolled page draws the sticky bar where the scroll left it.
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
}

test('the dashboard in Chromium', { skip, timeout: 240_000 }, async (t) => {
  // Asked about a city, the model calls the weather tool; given its result, it answers.
  const modelServer = await startOpenAITestServer((request) => {
    const messages = request.body.messages as { role: string; content?: unknown }[];
    const last = messages.at(-1);
    if (last?.role === 'tool' && String(last.content).includes('Found')) return { text: 'The tides are in.' };
    if (last?.role === 'tool')
      return {
        text: String(last.content).includes('Atlantis')
          ? 'I could not find Atlantis.'
          : 'It is **sunny** in Oslo today.\n```\nOslo 21°\n```',
      };
    if (String(last?.content ?? '').includes('take your time')) return { hang: true };
    if (String(last?.content ?? '').includes('slowly'))
      return { toolCalls: [{ name: 'slow_lookup', arguments: { topic: 'tides' } }] };
    const city = String(last?.content ?? '').includes('Atlantis') ? 'Atlantis' : 'Oslo';
    return { toolCalls: [{ name: 'weather_report', arguments: { city, days: 2 } }] };
  });
  t.after(() => modelServer.close());
  const model = createOpenAICompatibleModel({ model: 'test-model', baseUrl: modelServer.url, maxRetries: 0 });
  const gate = createProbe('dashboard-gate');
  let release = () => {};
  gate.released = new Promise<void>((resolve) => (release = resolve));
  t.after(() => release());
  const service = await startTestService(t, {
    files: { 'weather.ts': WEATHER_TOOL, 'stock.ts': UNAVAILABLE_TOOL, 'slow.ts': GATED_TOOL },
    model,
    watch: true,
  });
  const browser = await openBrowser(t, { width: 1280, height: 860 });
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);

  await t.test('chat: the reply streams in, with a card for the tool call and its result', async () => {
    await page.locator('#chat-input').fill('What is the weather in Oslo?');
    await page.locator('#chat-input').press('Enter');
    const card = page.locator('.tool-card[data-state="success"]');
    await card.waitFor();
    assert.equal(await card.locator('.tool-name').textContent(), 'weather_report');
    await card.locator('summary').click();
    assert.match((await card.locator('.tool-result').textContent()) ?? '', /Sunny in Oslo, 21 celsius, for 2 day/);
    assert.match((await card.locator('.tool-params').textContent()) ?? '', /"city": "Oslo"/);
    assert.match((await card.locator('.duration').textContent()) ?? '', /\d+(\.\d+)? m?s/);
    const answer = page.locator('.message.assistant', { hasText: 'It is sunny in Oslo today.' });
    await answer.waitFor();
    assert.equal(await answer.locator('strong').textContent(), 'sunny');
    assert.equal(await answer.locator('pre code').textContent(), 'Oslo 21°');
    await page.locator('.session-item').first().waitFor();
    assert.match(page.url(), /#\/chat\/.+/, 'the new session is in the address');
    await screenshot(page, 'chat');
  });

  let sessionUrl = '';
  await t.test('chat: a session is resumed with its history and tool cards', async () => {
    sessionUrl = page.url();
    await page.locator('[data-action="new-chat"]').click();
    await page.locator('.welcome').waitFor();
    await page.goto(sessionUrl);
    await page.reload();
    const card = page.locator('.tool-card[data-state="success"]');
    await card.waitFor();
    assert.match((await card.locator('.tool-result').textContent()) ?? '', /Sunny in Oslo/);
    await page.locator('.message.user', { hasText: 'What is the weather in Oslo?' }).waitFor();
    await page.locator('.message.assistant', { hasText: 'It is sunny in Oslo today.' }).waitFor();
  });

  await t.test('chat: a tool call that fails shows its error; the new chat is a second session', async () => {
    await page.locator('[data-action="new-chat"]').click();
    await page.locator('#chat-input').fill('And the weather in Atlantis?');
    await page.locator('button[type="submit"]', { hasText: 'Send' }).click();
    const card = page.locator('.tool-card[data-state="failure"]');
    await card.waitFor();
    await card.locator('summary').click();
    assert.equal(await card.locator('h4').nth(1).textContent(), 'Error');
    assert.match((await card.locator('.tool-result').textContent()) ?? '', /There is no city called Atlantis/);
    await page.locator('.message.assistant', { hasText: 'I could not find Atlantis.' }).waitFor();
    await page.locator('.session-item').nth(1).waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'chat-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  await t.test('tools: each tool with its file and availability; switched off and on again', async () => {
    await page.locator('.nav a[data-page="tools"]').click();
    const weather = page.locator('article[data-tool="weather_report"]');
    await weather.waitFor();
    assert.equal(await weather.locator('.badge').first().textContent(), 'Available');
    assert.match((await weather.locator('.tool-meta').textContent()) ?? '', /weather\.ts/);
    const stock = page.locator('article[data-tool="stock_quote"]');
    assert.equal(await stock.locator('.badge').first().textContent(), 'Unavailable');

    const toggle = weather.getByRole('switch');
    await toggle.click();
    await weather.locator('.badge', { hasText: 'Switched off' }).waitFor();
    assert.equal(await toggle.isChecked(), false);
    const off = (await page.evaluate(async () => (await fetch('/api/tools/weather_report')).json())) as {
      available: boolean;
    };
    assert.equal(off.available, false);
    await toggle.click();
    await weather.locator('.badge', { hasText: 'Available' }).waitFor();
    assert.equal(await toggle.isChecked(), true);
  });

  await t.test('tools: a tool file saved on disk shows up live, without a reload', async () => {
    await writeFile(join(service.tools, 'echo.ts'), ECHO_TOOL);
    await page.locator('article[data-tool="echo_text"] .badge', { hasText: 'Available' }).waitFor({ timeout: 30_000 });
    await rm(join(service.tools, 'echo.ts'));
    await page.locator('article[data-tool="echo_text"]').waitFor({ state: 'detached', timeout: 30_000 });
    await writeFile(join(service.tools, 'broken.ts'), 'export class Broken extends {');
    const failure = page.locator('article[data-failure$="broken.ts"]');
    await failure.locator('.badge', { hasText: 'Failed to load' }).waitFor({ timeout: 30_000 });
    await failure.locator('.diagnostic.error').first().waitFor();
    await rm(join(service.tools, 'broken.ts'));
    await failure.waitFor({ state: 'detached', timeout: 30_000 });
  });

  await t.test('tools: a tool run from its form, its types checked before sending', async () => {
    const weather = page.locator('article[data-tool="weather_report"]');
    await weather.locator('.run-panel summary').click();
    const form = weather.locator('form.tool-form');
    assert.equal(await form.locator('select[name="unit"] option').count(), 3, 'the enum is a choice');
    assert.equal(await form.locator('input[name="hourly"]').getAttribute('type'), 'checkbox');
    assert.equal(await form.locator('input[name="days"]').getAttribute('type'), 'number');
    await form.locator('button[type="submit"]').click();
    await form.locator('.field-error', { hasText: 'This field is required.' }).waitFor();
    assert.equal(await form.locator('input[name="city"]').getAttribute('aria-invalid'), 'true');
    await form.locator('input[name="city"]').fill('Kyoto');
    await form.locator('input[name="days"]').fill('2.5');
    await form.locator('button[type="submit"]').click();
    await form.locator('.field-error', { hasText: 'Enter a whole number.' }).waitFor();
    await form.locator('input[name="days"]').fill('3');
    await form.locator('select[name="unit"]').selectOption({ label: 'fahrenheit' });
    await form.locator('input[name="hourly"]').check();
    await form.locator('button[type="submit"]').click();
    await form.locator('.run-result .badge', { hasText: 'Succeeded' }).waitFor();
    assert.equal(
      await form.locator('.run-output').textContent(),
      'Sunny in Kyoto, 21 fahrenheit, for 3 day(s), hourly',
    );
    await screenshot(page, 'tools');
  });

  await t.test(
    'traces: recent calls, filtered by tool and outcome, each opening its parameters and result',
    async () => {
      await page.locator('.nav a[data-page="traces"]').click();
      // The oldest call of the weather tool in a session (the tools page's runs by hand came later).
      const oslo = page
        .locator('details.trace[data-outcome="success"]:not(:has(.by-hand))', { hasText: 'weather_report' })
        .last();
      await oslo.waitFor();
      await oslo.locator('summary').click();
      assert.match((await oslo.locator('.trace-body').textContent()) ?? '', /"city": "Oslo"[\s\S]*Sunny in Oslo/);
      await page.locator('#trace-outcome').selectOption('failure');
      const atlantis = page.locator('details.trace[data-outcome="failure"]');
      await atlantis.waitFor();
      // Every success gone (the runs by hand made on the tools page among them).
      await page.locator('details.trace[data-outcome="success"]').first().waitFor({ state: 'detached' });
      await atlantis.locator('summary').click();
      assert.match(
        (await atlantis.locator('.trace-body').textContent()) ?? '',
        /"city": "Atlantis"[\s\S]*There is no city called Atlantis/,
      );
      await page.locator('#trace-outcome').selectOption('success');
      await page.locator('#trace-tool').selectOption('stock_quote');
      await page.locator('.trace-list .empty').waitFor();
      await page.locator('#trace-tool').selectOption('weather_report');
      await oslo.waitFor();
      assert.equal(await page.locator('details.trace[data-outcome="failure"]').count(), 0);
      await screenshot(page, 'traces');
    },
  );

  await t.test('chat: a card shows a spinner while its tool runs, then its result', async () => {
    await page.locator('.nav a[data-page="chat"]').click();
    await page.locator('[data-action="new-chat"]').click();
    await page.locator('#chat-input').fill('Look up the tides, slowly');
    await page.locator('#chat-input').press('Enter');
    const card = page.locator('.tool-card', { hasText: 'slow_lookup' });
    await card.locator('.spinner').waitFor();
    assert.equal(await card.getAttribute('data-state'), 'running');
    assert.equal(await card.locator('.spinner').getAttribute('aria-label'), 'Running');
    release();
    await card.locator('.badge', { hasText: 'Succeeded' }).waitFor();
    assert.equal(await card.locator('.spinner').count(), 0);
    await page.locator('.message.assistant', { hasText: 'The tides are in.' }).waitFor();
  });

  await t.test('chat: Stop ends a reply that is taking too long', async () => {
    await page.locator('.nav a[data-page="chat"]').click();
    await page.locator('[data-action="new-chat"]').click();
    await page.locator('#chat-input').fill('Think hard, take your time');
    await page.locator('#chat-input').press('Enter');
    const stop = page.locator('.composer button', { hasText: 'Stop' });
    await stop.waitFor();
    assert.equal(await page.locator('.transcript').getAttribute('aria-busy'), 'true');
    await stop.click();
    await page.locator('.message.note', { hasText: 'Stopped.' }).waitFor();
    await page.locator('.composer button', { hasText: 'Send' }).waitFor();
    assert.equal(await page.locator('.transcript').getAttribute('aria-busy'), null);
    assert.equal(await page.locator('#chat-input').isDisabled(), false);
  });

  await t.test('sessions: one renamed, then deleted after asking (its traces with it)', async () => {
    await page.locator('.nav a[data-page="chat"]').click();
    await page.locator('.session-item', { hasText: 'Atlantis' }).locator('.session-open').click();
    await page.locator('.tool-card[data-state="failure"]').waitFor();
    const sessions = await page.locator('.session-item').count();
    const item = page.locator('.session-item.current');
    await item.getByRole('button', { name: /^Rename / }).click();
    const field = page.locator('.session-rename');
    await field.fill('Atlantis trip');
    await field.press('Enter');
    await page.locator('.session-item.current .session-name', { hasText: 'Atlantis trip' }).waitFor();
    assert.match(page.url(), /#\/chat\/Atlantis%20trip$/);
    assert.equal(await page.locator('#conversation-title').textContent(), 'Atlantis trip');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page
      .locator('.session-item.current')
      .getByRole('button', { name: /^Delete / })
      .click();
    await page.locator('.welcome').waitFor();
    assert.match(asked[0] ?? '', /Atlantis trip/);
    await page.locator('.session-item', { hasText: 'Atlantis trip' }).waitFor({ state: 'detached' });
    assert.equal(await page.locator('.session-item').count(), sessions - 1);
    await page.goto(sessionUrl);
    await page.locator('.tool-card[data-state="success"]').waitFor();
  });

  await t.test('language: zh and ja from the switch, remembered, with the lang attribute set', async () => {
    await page.locator('#language-select').selectOption('zh');
    assert.equal(await page.locator('html').getAttribute('lang'), 'zh');
    assert.equal(await page.locator('.nav a[data-page="tools"]').textContent(), '工具');
    assert.equal(await page.locator('#page-traces h1').textContent(), '调用记录');
    await page.locator('.nav a[data-page="tools"]').click();
    await page.locator('article[data-tool="weather_report"] .badge', { hasText: '可用' }).waitFor();
    await screenshot(page, 'tools-zh');
    await page.locator('#language-select').selectOption('ja');
    assert.equal(await page.locator('.nav a[data-page="chat"]').textContent(), 'チャット');
    await page.reload();
    assert.equal(await page.locator('html').getAttribute('lang'), 'ja');
    assert.equal(await page.locator('.nav a[data-page="tools"]').textContent(), 'ツール');
    await page.locator('article[data-tool="weather_report"] .badge', { hasText: '使用可能' }).waitFor();
    await screenshot(page, 'tools-ja');
    await page.locator('#language-select').selectOption('en');
    assert.equal(await page.locator('.nav a[data-page="tools"]').textContent(), 'Tools');
  });

  await t.test('accessibility: every control has a name, and the keyboard works the switches and forms', async () => {
    const unnamed = await page.evaluate(() =>
      [
        ...(globalThis as unknown as PageGlobals).document.querySelectorAll(
          'button, input, select, textarea, summary, a[href]',
        ),
      ]
        .filter(
          (el) =>
            el.getAttribute('aria-label') === null &&
            (el.textContent ?? '').trim() === '' &&
            (el.id === '' ||
              (globalThis as unknown as PageGlobals).document.querySelector(`label[for="${el.id}"]`) === null) &&
            el.closest('label') === null,
        )
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    assert.deepEqual(unnamed, []);
    await page.locator('.nav a[data-page="tools"]').click();
    const toggle = page.locator('article[data-tool="weather_report"]').getByRole('switch');
    await toggle.press('Space');
    await page.locator('article[data-tool="weather_report"] .badge', { hasText: 'Switched off' }).waitFor();
    await toggle.press('Space');
    await page.locator('article[data-tool="weather_report"] .badge', { hasText: 'Available' }).waitFor();
    const outline = await toggle.evaluate(
      (el: object) =>
        (globalThis as unknown as { getComputedStyle(el: object): { outlineStyle: string } }).getComputedStyle(el)
          .outlineStyle,
    );
    assert.notEqual(outline, 'none', 'focus is visible, and stays on the switch');
    await page.locator('article[data-tool="weather_report"] .run-panel summary').press('Enter');
    const form = page.locator('article[data-tool="weather_report"] form.tool-form');
    await form.locator('input[name="city"]').fill('Lima');
    await form.locator('input[name="days"]').fill('1');
    await form.locator('input[name="city"]').press('Enter');
    await form.locator('.run-output', { hasText: 'Sunny in Lima' }).waitFor();
    // What a tool returns is text, never markup.
    const markup = '<img src=x onerror="document.title=1"><b>bold</b>';
    await form.locator('input[name="city"]').fill(markup);
    await form.locator('input[name="city"]').press('Enter');
    await form.locator('.run-output', { hasText: `Sunny in ${markup}` }).waitFor();
    assert.equal(await page.locator('main img, main b').count(), 0);
  });

  await t.test('phone width: the nav folds into a menu, nothing is wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(sessionUrl);
    const menu = page.locator('.menu-button');
    assert.equal(await menu.isVisible(), true);
    assert.equal(await page.locator('.nav').isVisible(), false);
    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await page.locator('.nav a[data-page="tools"]').waitFor({ state: 'visible' });
    await screenshot(page, 'phone-menu');
    await page.locator('.nav a[data-page="chat"]').click();
    assert.equal(await page.locator('.nav').isVisible(), false, 'choosing a page closes the menu');
    await page.locator('.tool-card').first().waitFor();
    assert.ok(
      await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth <= 390),
      'no sideways scrolling',
    );
    await screenshot(page, 'phone-chat');
    await page.locator('.nav a[data-page="tools"]').evaluate((link: { click(): void }) => link.click()); // hidden behind the menu at this width
    await page.locator('article[data-tool="weather_report"]').waitFor();
    assert.ok(
      await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth <= 390),
      'no sideways scrolling on the tools page',
    );
    await screenshot(page, 'phone-tools');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  await t.test('the token: taken from #token= and out of the address, or asked for on 401', async (tt) => {
    const guarded = await startTestService(tt, {
      files: { 'weather.ts': WEATHER_TOOL },
      server: { token: 'open-sesame' },
    });
    const asked = await openPage(browser, `${guarded.url}#/tools`);
    const dialog = asked.page.locator('#sign-in');
    await dialog.waitFor({ state: 'visible' });
    await asked.page.locator('#sign-in-token').fill('open-sesame');
    await asked.page.locator('#sign-in-token').press('Enter');
    await asked.page.locator('article[data-tool="weather_report"]').waitFor();
    assert.equal(await dialog.isVisible(), false);
    await asked.page.evaluate(() => localStorage.removeItem('riverse.token'));
    await asked.page.close();

    const linked = await openPage(browser, `${guarded.url}#token=open-sesame`);
    await linked.page.locator('.nav a[data-page="chat"][aria-current="page"]').waitFor();
    assert.doesNotMatch(linked.page.url(), /open-sesame/);
    await linked.page.locator('.nav a[data-page="tools"]').click();
    await linked.page.locator('article[data-tool="weather_report"]').waitFor();
    assert.equal(await linked.page.locator('#sign-in').isVisible(), false);
    assert.equal(await linked.page.evaluate(() => localStorage.getItem('riverse.token')), 'open-sesame');
    assert.deepEqual([...asked.problems, ...linked.problems], []);
    await linked.page.close();
  });

  await t.test('no model: how to connect one, and the default model downloaded with a progress bar', async (tt) => {
    const hub = await useFakeModelHub(tt, new TextEncoder().encode('this is not a GGUF model '.repeat(4000)), {
      holdHalf: true,
    });
    const bare = await startTestService(tt, { files: { 'weather.ts': WEATHER_TOOL } });
    const { page: fresh, problems: freshProblems } = await openPage(browser, `${bare.url}#/chat`);
    const panel = fresh.locator('[data-panel="connect"]');
    await panel.waitFor();
    assert.match((await panel.locator('.connect-hint').textContent()) ?? '', /RIVERSE_MODEL/);
    assert.equal(await fresh.locator('#chat-input').isDisabled(), true);
    await fresh.locator('#language-select').selectOption('zh');
    await panel.locator('.connect-hint', { hasText: '尚未连接模型' }).waitFor(); // the server's hint, asked for in zh
    await fresh.locator('#language-select').selectOption('en');
    await panel.locator('.connect-hint', { hasText: 'No model is connected' }).waitFor();

    if (!(await hasNodeLlamaCpp())) {
      assert.equal((await panel.locator('.notice.warn pre').textContent())?.trim(), installCommand());
      assert.equal(await panel.locator('[data-action="download-model"]').isDisabled(), true);
      await screenshot(fresh, 'download');
      tt.diagnostic('node-llama-cpp is not installed: the page shows how to install it; the download itself needs it');
      assert.deepEqual(freshProblems, []);
      return;
    }
    await panel.locator('[data-action="download-model"]').click();
    // The hub holds the second half back: the bar stands part-way until it is let go.
    const bar = panel.locator('progress');
    await fresh.waitForFunction(() => {
      const progress = (globalThis as unknown as PageGlobals).document.querySelector('[data-panel="connect"] progress');
      return progress?.hasAttribute('value') && progress.value > 0 && progress.value < progress.max;
    });
    assert.match((await panel.locator('.download-progress').textContent()) ?? '', /KB of \d+(\.\d)? KB \(\d+%\)/);
    assert.equal(await panel.locator('[data-action="download-model"]').isDisabled(), true);
    await screenshot(fresh, 'download');
    hub.release();
    const problem = panel.locator('.notice.error');
    await problem.waitFor();
    assert.match((await problem.textContent()) ?? '', /could not be set up.*could not load .* as a GGUF model/s);
    assert.equal(await panel.locator('[data-action="download-model"]').textContent(), 'Try the download again');
    assert.equal(await bar.isVisible(), false);
    await screenshot(fresh, 'download-failed');
    assert.deepEqual(freshProblems, []);
    await fresh.close();
  });

  await t.test(
    'no model: a download that loads becomes the model, and the chat opens',
    { skip: (await hasNodeLlamaCpp()) ? false : 'node-llama-cpp is not installed' },
    async (tt) => {
      await useFakeModelHub(tt, tinyGguf());
      const bare = await startTestService(tt, { files: { 'weather.ts': WEATHER_TOOL } });
      const { page: fresh, problems: freshProblems } = await openPage(browser, `${bare.url}#/chat`);
      const panel = fresh.locator('[data-panel="connect"]');
      await panel.locator('[data-action="download-model"]').click();
      await panel.waitFor({ state: 'hidden' });
      assert.match(
        (await fresh.locator('#model-badge').textContent()) ?? '',
        /local:qwen2\.5-1\.5b-instruct-q4_k_m\.gguf/,
      );
      assert.equal(await fresh.locator('#chat-input').isDisabled(), false);
      assert.deepEqual(freshProblems, []);
      await fresh.close();
    },
  );

  assert.deepEqual(problems, [], 'the page logged no errors');
});

const CAREFUL_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class CarefulWriteTool extends BaseTool {
  manifest() {
    return {
      name: 'careful_write',
      description: 'Writes carefully',
      parameters: { text: 'What to write' },
      examples: ['Write it down', 'Note this'],
      offByDefault: true,
    };
  }
  async execute(params) {
    return ToolResult.ok('written: ' + (params.text ?? ''));
  }
}
`;

const PLAN_TOOL = `import { BaseTool, ToolResult } from 'riverse';

export class PlanWeekTool extends BaseTool {
  manifest() {
    return {
      name: 'plan_week',
      description: 'Plans the week',
      parameters: {
        days: { type: 'array', items: { type: 'string', enum: ['mon', 'tue', 'wed'] }, required: true, description: 'The days' },
      },
      examples: ['Plan my week', 'Which days am I free?'],
    };
  }
  async execute(params) {
    return ToolResult.ok('Planned: ' + params.days.join(', '));
  }
}
`;

type Scroll = { document: { documentElement: { scrollWidth: number } } };
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Scroll).document.documentElement.scrollWidth);

/** The tool that is off by default seen at this width, in this language (careful_write at 1280 in English). */
const carefulName = (width: number, language: PageLanguage) =>
  width === 1280 && language === 'en' ? 'careful_write' : `careful_${width}_${language}`;
/** careful.ts, and a copy of it under each other name. */
const CAREFUL_FILES = Object.fromEntries(
  WIDTHS.flatMap((size) => PAGE_LANGUAGES.map((language) => carefulName(size.width, language))).map((name) => [
    `${name}.ts`,
    CAREFUL_TOOL.replace("name: 'careful_write'", `name: '${name}'`).replace(
      'class CarefulWriteTool',
      `class Tool_${name}`,
    ),
  ]),
);

/** Whether `locator` is inside the window's width (not cut off at its right edge). */
async function onScreen(locator: Locator, width: number): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

test('the dashboard in Chromium: switches, sign-in and traces tell the truth', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const service = await startTestService(t, {
    files: { 'weather.ts': WEATHER_TOOL, ...CAREFUL_FILES, 'plan.ts': PLAN_TOOL },
  });
  const browser = await openBrowser(t, { width: 1280, height: 860 });
  const { page, problems } = await openPage(browser, `${service.url}#/traces`);
  await page.setViewportSize({ width: 1280, height: 800 });

  await t.test('traces: with no calls yet and no filter, the page says so, not "no calls match"', async () => {
    await page.locator('.trace-list .empty', { hasText: 'No tool calls yet.' }).waitFor();
    assert.equal(await page.locator('#page-traces .page-header p').isVisible(), false, 'no "0 recent tool calls"');
    await page.locator('#trace-outcome').selectOption('failure');
    await page.locator('.trace-list .empty', { hasText: 'No tool calls match.' }).waitFor();
    await page.locator('#trace-outcome').selectOption('');
  });

  // Each switch point at both widths and in each language, every one with a tool of its own that is off by default.
  for (const size of WIDTHS)
    for (const language of PAGE_LANGUAGES) {
      const at = `${size.width}×${size.height} in ${language}`;
      const say = (key: string, vars: Record<string, string> = {}) => pageSays(language, key, vars);
      const toTools = async () => {
        await page.setViewportSize(size);
        await page.locator('#language-select').selectOption(language);
        // Behind the menu on a phone.
        await page.locator('.nav a[data-page="tools"]').evaluate((link: { click(): void }) => link.click());
      };
      await t.test(
        `${at}: a tool off by default shows off, says Off, offers no run, and one click turns it on`,
        async () => {
          await toTools();
          const name = carefulName(size.width, language);
          const careful = page.locator(`article[data-tool="${name}"]`);
          await careful.locator('.badge', { hasText: say('switchedOff') }).waitFor();
          const toggle = careful.getByRole('switch');
          assert.equal(await toggle.isChecked(), false);
          assert.equal(await careful.locator('.switch-state').textContent(), say('switchOff'));
          assert.equal(
            await careful.locator('.run-panel').isVisible(),
            false,
            'no "Run by hand" for a tool that is off',
          );
          assert.equal(await careful.locator('.run-when-on').textContent(), say('runWhenOn'));
          assert.ok(await onScreen(toggle, size.width), 'the switch is on the screen');
          await toggle.click();
          await careful.locator('.badge', { hasText: say('available') }).waitFor();
          assert.equal(await careful.locator('.switch-state').textContent(), say('enabled'));
          assert.equal(await careful.locator('.run-panel').isVisible(), true);
          const view = (await page.evaluate(async (tool) => (await fetch(`/api/tools/${tool}`)).json(), name)) as {
            enabled: boolean;
            available: boolean;
          };
          assert.deepEqual([view.enabled, view.available], [true, true]);
          assert.ok((await noSidewaysScroll(page)) <= size.width, 'no sideways scrolling');
        },
      );

      await t.test(`${at}: a second click while a switch is applied is kept, not dropped`, async () => {
        await toTools();
        const weather = page.locator('article[data-tool="weather_report"]');
        const toggle = weather.getByRole('switch');
        await toggle.click();
        await toggle.click(); // while the first is on its way
        await weather.locator('.switch:not(:has(.spinner:not([hidden])))').waitFor();
        await weather.locator('.badge', { hasText: say('available') }).waitFor();
        assert.equal(await toggle.isChecked(), true);
        assert.equal(await weather.locator('.switch-state').textContent(), say('enabled'));
        const view = (await page.evaluate(async () => (await fetch('/api/tools/weather_report')).json())) as {
          enabled: boolean;
        };
        assert.equal(view.enabled, true, 'the service has the state the switch shows');
      });

      await t.test(`${at}: a list of choices is a checkbox per choice, sent as a list`, async () => {
        await toTools();
        const plan = page.locator('article[data-tool="plan_week"]');
        const panel = plan.locator('.run-panel');
        assert.equal(await panel.locator('summary').textContent(), say('runByHand'));
        if (!(await panel.evaluate((el: { open: boolean }) => el.open))) await panel.locator('summary').click();
        const form = plan.locator('form.tool-form');
        assert.equal(await form.locator('textarea').count(), 0, 'no JSON box');
        assert.equal(await form.locator('fieldset input[type="checkbox"]').count(), 3);
        for (const choice of ['mon', 'tue', 'wed'])
          assert.ok(await onScreen(form.getByLabel(choice), size.width), `${choice} is on the screen`);
        await screenshot(page, `tools-switches-${size.width}-${language}`);
        // Run once (the traces below count the runs by hand).
        if (size.width !== 1280 || language !== 'en') return;
        await form.getByLabel('wed').check();
        await form.getByLabel('mon').check();
        await form.locator('button[type="submit"]').click();
        await form.locator('.run-output', { hasText: 'Planned: mon, wed' }).waitFor();
      });
    }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('#language-select').selectOption('en');

  await t.test('traces: a run by hand is there, counted as one call, and its row says it opens', async () => {
    await page.locator('.nav a[data-page="traces"]').click();
    const row = page.locator('details.trace', { hasText: 'plan_week' });
    await row.waitFor();
    assert.equal(await row.locator('.session').textContent(), 'Run by hand');
    assert.equal(await page.locator('#page-traces .page-header p').textContent(), 'One recent tool call.');
    assert.equal(await row.locator('.chevron').isVisible(), true);
    await row.locator('summary').click();
    assert.match(
      (await row.locator('.trace-body').textContent()) ?? '',
      /"wed"[\s\S]*Planned: mon, wed[\s\S]*Tools page/,
    );
    await screenshot(page, 'traces-by-hand');
  });

  await t.test('phone width, in zh and ja: trace rows show their time and a sign, switches their state', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const row = page.locator('details.trace', { hasText: 'plan_week' });
    assert.equal(await row.locator('.when').isVisible(), true, 'rows can be told apart');
    assert.equal(await row.locator('.session').isVisible(), true);
    assert.equal(await row.locator('.chevron').isVisible(), true);
    assert.ok((await noSidewaysScroll(page)) <= 390);
    await screenshot(page, 'phone-traces');
    // The label says a state, not an action (zh: 已开启/已关闭, not 启用/关闭).
    for (const [language, one, byHand, off, on] of [
      ['zh', '最近 1 次工具调用。', '手动运行', '已关闭', '已开启'],
      ['ja', '最近のツール呼び出し 1 件。', '手動実行', 'オフ', 'オン'],
    ] as const) {
      await page.locator('#language-select').selectOption(language);
      await page.locator('#page-traces .page-header p', { hasText: one }).waitFor();
      assert.equal(await row.locator('.session').textContent(), byHand);
      await page.locator('.nav a[data-page="tools"]').evaluate((link: { click(): void }) => link.click());
      const careful = page.locator('article[data-tool="careful_write"]');
      await careful.getByRole('switch').click();
      await careful.locator('.switch-state', { hasText: off }).waitFor();
      await careful.locator('.run-when-on').waitFor();
      assert.ok((await noSidewaysScroll(page)) <= 390);
      await screenshot(page, `phone-tools-${language}`);
      await careful.getByRole('switch').click();
      await careful.locator('.run-panel').waitFor();
      await careful.locator('.switch-state', { hasText: on }).waitFor();
      await page.locator('.nav a[data-page="traces"]').evaluate((link: { click(): void }) => link.click());
    }
    await page.locator('#language-select').selectOption('en');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await t.test('toasts: in the page language after a switch, and clear of the header on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.nav a[data-page="tools"]').evaluate((link: { click(): void }) => link.click());
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    const weather = page.locator('article[data-tool="weather_report"]');
    await weather.getByRole('switch').click();
    await weather.locator('.switch-state', { hasText: 'Off' }).waitFor();
    // Its own toast (the one before may still be there, and a toast comes after the switch shows its state).
    const said = page.locator('#toasts .toast', { hasText: 'weather_report' }).last();
    await said.waitFor();
    assert.equal(await said.textContent(), 'weather_report is off.');
    const [toast, topbar, header] = await Promise.all(
      [said, page.locator('.topbar'), page.locator('#page-tools .page-header')].map((shown) => shown.boundingBox()),
    );
    assert.ok(toast && topbar && header);
    for (const [name, box] of [
      ['the top bar', topbar],
      ['the page header', header],
    ] as const) {
      assert.ok(toast.y >= box.y + box.height, `the toast is below ${name}`);
    }
    assert.ok(toast.y + toast.height <= 844, 'on the screen');
    await screenshot(page, 'phone-toast');
    for (const [language, off] of [
      ['ja', 'weather_report をオフにしました。'],
      ['zh', 'weather_report 已关闭。'],
      ['en', 'weather_report is off.'],
    ] as const) {
      await page.locator('#language-select').selectOption(language);
      assert.equal(await said.textContent(), off, `the toast follows the switch to ${language}`);
    }
    await weather.getByRole('switch').click();
    await weather.locator('.switch-state', { hasText: 'On' }).waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await t.test(
    'sign-in: no "not accepted" before a token was given, at both widths in en, zh and ja; no empty model badge',
    async (tt) => {
      const guarded = await startTestService(tt, {
        files: { 'weather.ts': WEATHER_TOOL },
        server: { token: 'open-sesame' },
      });
      for (const size of WIDTHS)
        for (const [language, text] of [
          ['en', 'This service needs its access token'],
          ['zh', '此服务需要访问令牌'],
          ['ja', 'このサービスにはアクセストークンが必要です'],
        ] as const) {
          const asked = await openPage(browser, `${guarded.url}#/tools`);
          await asked.page.setViewportSize(size);
          await asked.page.evaluate((value) => localStorage.setItem('riverse.language', value), language);
          const refused = (path: string) =>
            asked.page.waitForResponse((response) => response.url().includes(path) && response.status() === 401);
          const firstLoad = Promise.all([refused('/api/tools'), refused('/api/status')]);
          await asked.page.reload();
          const dialog = asked.page.locator('#sign-in');
          await dialog.waitFor({ state: 'visible' });
          await dialog.locator('p', { hasText: text }).waitFor();
          await firstLoad; // every request of the first load was refused (before, the second said "not accepted")
          await asked.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
          assert.equal(
            await asked.page.locator('#sign-in-error').isVisible(),
            false,
            `${size.width} in ${language}: nothing was typed yet`,
          );
          assert.equal(
            await asked.page.locator('#model-badge').isVisible(),
            false,
            `${size.width} in ${language}: no empty badge`,
          );
          assert.ok(
            await onScreen(asked.page.locator('#sign-in-token'), size.width),
            'the token field is on the screen',
          );
          await screenshot(asked.page, `sign-in-asked-${size.width}-${language}`);
          // A wrong token is refused in the page's language; the right one opens it.
          await asked.page.locator('#sign-in-token').fill('wrong');
          await asked.page.locator('#sign-in-token').press('Enter');
          await asked.page.locator('#sign-in-error', { hasText: pageSays(language, 'signInWrong') }).waitFor();
          await asked.page.locator('#sign-in-token').fill('open-sesame');
          await asked.page.locator('#sign-in-token').press('Enter');
          await asked.page.locator('article[data-tool="weather_report"]').waitFor();
          await asked.page.locator('#model-badge', { hasText: pageSays(language, 'noModel') }).waitFor();
          await screenshot(asked.page, `sign-in-${size.width}-${language}`);
          await asked.page.evaluate(() => localStorage.clear());
          assert.deepEqual(asked.problems, []);
          await asked.page.close();
        }
    },
  );

  assert.deepEqual(problems, [], 'the page logged no errors');
});
