// The chat page in a real browser (Debian's Chromium driven by playwright-core) against the real
// service and the scripted OpenAI-protocol model, each point at 1280×800 and 390×844 and in en, zh
// and ja (the words expected are the page's own catalog): a call waiting for approval and after it, a
// long session name, the model badge, the "Connect a model" card, an unreachable model server said
// once, a new chat's title from the model, "1 message", the tools' reasons for being off (the
// built-ins' among them). Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { createOpenAICompatibleModel } from '../../models/providers/openai/openai-compatible.ts';
import { startOpenAITestServer } from '../../models/testing/openai-wire.ts';
import { BUILTIN_TOOL_FOLDER } from '../../tool-runtime/builtin-tools.ts';
import { toolSource } from '../../tool-runtime/test-support.ts';
import { startTestService } from '../server-test-support.ts';
import {
  ARTIFACTS,
  openBrowser,
  openPage,
  PAGE_LANGUAGES,
  pageSays,
  skipWithoutChromium as skip,
  WIDTHS,
} from './browser-test-support.ts';

const NOTE = toolSource('write_note', {
  manifest: "parameters: { text: { type: 'string', required: true, description: 'the note' } }, approval: 'always',",
  execute: "return ToolResult.ok('written: ' + params.text);",
});
const QUOTE = toolSource('quote_lookup', {
  members:
    "isAvailable() { return this.unavailable({ en: 'set tools.quote_lookup.api_key', zh: '请设置 tools.quote_lookup.api_key', ja: 'tools.quote_lookup.api_key を設定してください' }); }",
});

/** The titles the model gives, by the language its title request asks for (notes have their own). */
const TITLES = { en: 'Shopping list', zh: '购物清单', ja: '買い物リスト' } as const;
const NOTE_TITLES = { en: 'Notes', zh: '笔记', ja: 'メモ' } as const;
const LONG_NAME = 'A very long session name about the weather in many cities of the world, and then some more';

/** The slice of the page's globals the functions run in it use (this project's types have no DOM). */
type PageGlobals = {
  document: { documentElement: { scrollWidth: number } };
  getComputedStyle(el: object): Record<string, string>;
};
type Box = { scrollWidth: number; clientWidth: number; placeholder?: string };

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `chat-page-${name}.png`) });
}

/** The page is no wider than the window: nothing scrolls sideways. */
async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth);
}

/** Whether `locator` is inside the window's width (not cut off at its right edge). */
async function onScreen(locator: Locator, width: number): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

/** Whether an input's placeholder is read whole: its text is no wider than the input's content box. */
async function placeholderFits(input: Locator): Promise<boolean> {
  return input.evaluate((el: object) => {
    const g = globalThis as unknown as {
      document: { createElement(tag: 'canvas'): { getContext(kind: '2d'): any } };
      getComputedStyle(el: object): Record<string, string>;
    };
    const style = g.getComputedStyle(el);
    const context = g.document.createElement('canvas').getContext('2d');
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const input = el as { placeholder: string; clientWidth: number };
    const room = input.clientWidth - Number.parseFloat(style.paddingLeft!) - Number.parseFloat(style.paddingRight!);
    return context.measureText(input.placeholder).width <= room;
  });
}

/** Whether the element's text is cut (with an ellipsis, when `ellipsis`). */
async function isCut(locator: Locator): Promise<{ cut: boolean; ellipsis: boolean }> {
  return locator.evaluate((el: object) => {
    const box = el as Box;
    const style = (globalThis as unknown as PageGlobals).getComputedStyle(el);
    return { cut: box.scrollWidth > box.clientWidth, ellipsis: style.textOverflow === 'ellipsis' };
  });
}

/** A port nothing listens on: a model server that cannot be reached. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('the chat page in Chromium: both widths, cards and states, words in the reader’s language', {
  skip,
  timeout: 240_000,
}, async (t) => {
  // "note X" → write_note { text: X }, which asks first; given its result the model says so. A
  // title request (its system prompt asks for a title) is answered in the language it asks for.
  const modelServer = await startOpenAITestServer((request) => {
    const messages = request.body.messages as { role: string; content?: unknown }[];
    const system = String(messages.find((message) => message.role === 'system')?.content ?? '');
    const last = messages.at(-1)!;
    if (/short title|简短的标题|短いタイトル/.test(system)) {
      const titles = String(last.content).startsWith('note ') ? NOTE_TITLES : TITLES;
      return { text: `"${/日本語/.test(system) ? titles.ja : /中文/.test(system) ? titles.zh : titles.en}."` };
    }
    if (last.role === 'tool') return { text: `Tool said: ${String(last.content)}` };
    const text = String(last.content);
    if (text.startsWith('note ')) return { toolCalls: [{ name: 'write_note', arguments: { text: text.slice(5) } }] };
    return { text: 'Hello.' };
  });
  t.after(() => modelServer.close());
  const service = await startTestService(t, {
    files: { 'note.ts': NOTE, 'quote.ts': QUOTE },
    model: createOpenAICompatibleModel({ model: 'test-model', baseUrl: modelServer.url, maxRetries: 0 }),
    sessionTitles: 'model',
  });
  const browser = await openBrowser(t);
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);
  /** A new chat at this size, in this language. */
  const newChat = async (size: { width: number; height: number }, language: 'en' | 'zh' | 'ja' = 'en') => {
    await page.setViewportSize(size);
    await page.goto('about:blank');
    await page.goto(`${service.url}#/chat`);
    await page.locator('#language-select').selectOption(language);
    await page.locator('.welcome').waitFor();
  };
  const send = async (text: string) => {
    await page.locator('#chat-input').fill(text);
    await page.locator('#chat-input').press('Enter');
  };

  // Each point at both widths and in each language; the approval is approved on a laptop and denied on a phone.
  for (const size of WIDTHS)
    for (const language of PAGE_LANGUAGES) {
      const say = (key: string, vars: Record<string, string> = {}) => pageSays(language, key, vars);
      await t.test(
        `${size.width}×${size.height} in ${language}: a call waiting for approval is not "Running"; answered, the card stops asking`,
        async () => {
          await newChat(size, language);
          await send('note milk');
          const approval = page.locator('.approval-card[data-state="pending"]');
          await approval.waitFor();
          const card = page.locator('.tool-card', { hasText: 'write_note' });
          assert.equal(await card.getAttribute('data-state'), 'waiting');
          assert.equal(await card.locator('.spinner').count(), 0, 'no spinner while it waits');
          assert.equal(await card.locator('.preview').textContent(), say('waitingForApproval'));
          assert.equal(await card.locator('.badge').textContent(), say('waitingBadge'));
          assert.equal(await card.locator('.duration').textContent(), '', 'its clock does not run while it waits');
          assert.doesNotMatch((await card.textContent()) ?? '', new RegExp(say('running')));
          assert.ok(
            await placeholderFits(approval.locator('.approval-reason')),
            'the reason’s placeholder is read whole',
          );
          for (const name of [say('approveOnce'), say('approveAlways'), say('deny')])
            assert.ok(await onScreen(approval.getByRole('button', { name }), size.width), `${name} is on the screen`);
          assert.ok((await pageWidth(page)) <= size.width, 'no sideways scrolling');
          await screenshot(page, `approval-${size.width}-${language}`);

          const approve = size.width === 1280;
          await approval.locator(`button[data-decision="${approve ? 'approve' : 'deny'}"]`).click();
          const answered = page.locator(`.approval-card[data-state="${approve ? 'approved' : 'denied'}"]`);
          await answered.waitFor();
          const title = say(approve ? 'approvalTitleApproved' : 'approvalTitleDenied', { tool: 'write_note' });
          assert.equal(await answered.locator('h3').textContent(), title);
          assert.equal(await answered.locator('.approval-actions').isVisible(), false, 'no buttons asking any more');
          assert.equal(await answered.getByText(say('approvalText')).isVisible(), false);
          assert.equal(await answered.getAttribute('aria-label'), title);
          await page
            .locator(`.tool-card[data-state="${approve ? 'success' : 'failure'}"]`, { hasText: 'write_note' })
            .waitFor();
          if (approve) await page.locator('.message.assistant', { hasText: 'Tool said: written: milk' }).waitFor();
        },
      );
    }

  for (const size of WIDTHS)
    await t.test(
      `${size.width}×${size.height}: a new chat takes a short title from the model, in the page’s language (en, zh, ja)`,
      async () => {
        for (const language of PAGE_LANGUAGES) {
          await newChat(size, language);
          await send('hello there, can you help me with my shopping today?');
          await page.locator('.message.assistant', { hasText: 'Hello.' }).waitFor();
          await page.locator('#conversation-title', { hasText: TITLES[language] }).waitFor();
          if (size.width === 1280)
            await page.locator('.session-item.current .session-name', { hasText: TITLES[language] }).waitFor();
          assert.match(decodeURIComponent(page.url()), new RegExp(`#/chat/${TITLES[language]}`));
          // The next message goes on in the same chat, under its new name.
          await send('and thanks');
          await page.locator('.message.assistant', { hasText: 'Hello.' }).nth(1).waitFor();
          assert.match(decodeURIComponent(page.url()), new RegExp(`#/chat/${TITLES[language]}`));
        }
        await page.locator('#language-select').selectOption('en');
      },
    );

  await t.test('the session list says "1 message" and "4 messages", at both widths in en, zh and ja', async () => {
    const solo = await service.context.store.session('one message');
    await service.context.store.appendMessages(solo.id, [{ role: 'user', content: 'alone' }]);
    for (const size of WIDTHS)
      for (const language of PAGE_LANGUAGES) {
        await newChat(size, language);
        if (size.width === 390) await page.locator('.sessions-toggle').click();
        const meta = (name: string) => page.locator(`.session-item[data-session="${name}"] .session-meta`);
        await meta('one message').waitFor();
        const [one, four] = [
          pageSays(language, 'sessionMetaOne', { count: 1, when: '' }),
          pageSays(language, 'sessionMeta', { count: 4, when: '' }),
        ];
        assert.ok(((await meta('one message').textContent()) ?? '').startsWith(one), `${language}: ${one}`);
        assert.ok(((await meta(TITLES.en).textContent()) ?? '').startsWith(four), `${language}: ${four}`);
      }
    await page.locator('#language-select').selectOption('en');
  });

  for (const size of WIDTHS)
    for (const language of PAGE_LANGUAGES)
      await t.test(
        `${size.width}×${size.height} in ${language}, Sessions open with a long name: cut with an ellipsis, every button on the screen`,
        async () => {
          if ((await service.context.store.findSession(LONG_NAME)) === undefined)
            await service.context.store.renameSession('one message', LONG_NAME);
          await page.setViewportSize(size);
          await page.goto('about:blank');
          await page.goto(`${service.url}#/chat/${encodeURIComponent(LONG_NAME)}`);
          await page.locator('#language-select').selectOption(language);
          await page.locator('.message.user', { hasText: 'alone' }).waitFor();
          if (size.width === 390) await page.locator('.sessions-toggle').click();
          const item = page.locator('.session-item.current');
          await item.waitFor();
          assert.ok((await pageWidth(page)) <= size.width, `the page is ${await pageWidth(page)} px wide`);
          assert.deepEqual(await isCut(item.locator('.session-name')), { cut: true, ellipsis: true });
          // The heading over the conversation has the room for it on a laptop; on a phone it is cut too.
          assert.deepEqual(await isCut(page.locator('#conversation-title')), {
            cut: size.width === 390,
            ellipsis: true,
          });
          for (const control of [
            page.locator('[data-action="new-chat"]'),
            item.getByRole('button', { name: pageSays(language, 'renameSession', { name: LONG_NAME }) }),
            item.getByRole('button', { name: pageSays(language, 'deleteSession', { name: LONG_NAME }) }),
            page.locator('.composer button[type="submit"]'),
          ])
            assert.ok(await onScreen(control, size.width), `${await control.textContent()} is on the screen`);
          await screenshot(page, `sessions-${size.width}-${language}`);
        },
      );

  for (const size of WIDTHS)
    await t.test(`${size.width}×${size.height}: the model badge reads whole, in en, zh and ja`, async () => {
      await page.setViewportSize(size);
      for (const language of PAGE_LANGUAGES) {
        await page.locator('#language-select').selectOption(language);
        const badge = page.locator('#model-badge', {
          hasText: pageSays(language, 'modelBadge', { id: 'openai:test-model' }),
        });
        await badge.waitFor();
        assert.deepEqual(await isCut(badge), { cut: false, ellipsis: true }, language);
        assert.ok(await onScreen(badge, size.width), language);
      }
      await page.locator('#language-select').selectOption('en');
    });

  await t.test('tools page: a tool’s reason for being off is in the page’s language', async () => {
    await page.setViewportSize(WIDTHS[0]);
    // The page's first list of tools is held until the language has been switched: an answer asked for in
    // the old language must not stay on the page.
    let release = () => {};
    const switched = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    await page.route('**/api/tools', async (route) => {
      if (first) {
        first = false;
        await switched;
      }
      await route.continue();
    });
    await page.goto(`${service.url}#/tools`);
    const expected = {
      en: 'set tools.quote_lookup.api_key',
      zh: '请设置 tools.quote_lookup.api_key',
      ja: 'tools.quote_lookup.api_key を設定してください',
    };
    for (const language of ['zh', 'ja', 'en'] as const) {
      await page.locator('#language-select').selectOption(language);
      release();
      await page.locator('article[data-tool="quote_lookup"] .notice.warn', { hasText: expected[language] }).waitFor();
    }
    await page.unroute('**/api/tools');
  });

  await t.test(
    'tools page: the built-ins’ reasons for being off and the weather tool’s errors, at both widths in en, zh and ja',
    async (tt) => {
      // A weather service that knows no place: the weather tool's error, in the page's language.
      const nowhere = createHttpServer((_request, response) => response.writeHead(404).end());
      await new Promise<void>((resolve) => nowhere.listen(0, '127.0.0.1', resolve));
      tt.after(() => new Promise((resolve) => nowhere.close(resolve)));
      const weatherBase = `http://127.0.0.1:${(nowhere.address() as { port: number }).port}`;
      // The checkout's built-ins, as the package's sit beside an app's own folder.
      const builtins = await startTestService(tt, {
        yaml: `tools:\n  isolation: none\n  dirs: [${JSON.stringify(BUILTIN_TOOL_FOLDER)}]\n  weather:\n    base_url: ${weatherBase}\n`,
      });
      const { page: tools, problems: toolsProblems } = await openPage(browser, `${builtins.url}#/tools`);
      // The words of the built-ins' own files (agent/tools/file_write.ts, _openai-endpoint.ts), as a person reads them.
      const reasons = {
        file_write: {
          en: 'off by default, since it changes files',
          zh: '默认关闭，因为它会修改文件',
          ja: 'ファイルを書き換えるため既定ではオフです',
        },
        image_describe: {
          en: 'no OpenAI-compatible API is configured',
          zh: '尚未配置 OpenAI 兼容的 API',
          ja: 'OpenAI 互換の API が設定されていません',
        },
      };
      for (const size of WIDTHS)
        for (const language of PAGE_LANGUAGES) {
          await tools.setViewportSize(size);
          await tools.locator('#language-select').selectOption(language);
          for (const [name, said] of Object.entries(reasons)) {
            const note = tools.locator(`article[data-tool="${name}"] .notice.warn`, { hasText: said[language] });
            await note.waitFor();
            assert.ok(
              (await note.boundingBox())!.x + (await note.boundingBox())!.width <= size.width,
              `${name} in view`,
            );
          }
          const weather = tools.locator('article[data-tool="weather"]');
          const panel = weather.locator('.run-panel');
          if (!(await panel.evaluate((el: { open: boolean }) => el.open))) await panel.locator('summary').click();
          await weather.locator('input[name="city"]').fill(`Atlantis ${size.width}`);
          await weather.locator('form.tool-form button[type="submit"]').click();
          const unknown = {
            en: `The weather service does not know the place "Atlantis ${size.width}"`,
            zh: `天气服务不认识地点“Atlantis ${size.width}”`,
            ja: `天気サービスは「Atlantis ${size.width}」という場所を知りません`,
          };
          await weather.locator('.run-output.error', { hasText: unknown[language] }).waitFor();
          assert.ok((await pageWidth(tools)) <= size.width, `${size.width} in ${language}: no sideways scrolling`);
          await screenshot(tools, `builtins-${size.width}-${language}`);
        }
      await tools.locator('#language-select').selectOption('en');
      assert.deepEqual(toolsProblems, []);
      await tools.close();
    },
  );

  await t.test(
    'an unreachable model server: one failure, said once, with the fix, at both widths in en, zh and ja',
    async (tt) => {
      const port = await closedPort();
      const unreachable = await startTestService(tt, {
        model: createOpenAICompatibleModel({
          model: 'gone',
          baseUrl: `http://127.0.0.1:${port}/v1`,
          maxRetries: 2,
          retryDelayMs: 20,
        }),
        sessionTitles: 'model',
      });
      const { page: lost, problems: lostProblems } = await openPage(browser, `${unreachable.url}#/chat`);
      for (const [size, language] of WIDTHS.flatMap((size) =>
        PAGE_LANGUAGES.map((language) => [size, language] as const),
      )) {
        await lost.setViewportSize(size);
        await lost.goto('about:blank');
        await lost.goto(`${unreachable.url}#/chat`);
        await lost.locator('#language-select').selectOption(language);
        await lost.locator('#chat-input').fill('hello?');
        await lost.locator('#chat-input').press('Enter');
        const error = lost.locator('.message.note.error');
        await error.waitFor();
        await lost.locator('.transcript:not([aria-busy])').waitFor(); // the turn is over: nothing more comes
        assert.equal(await error.count(), 1);
        if (language === 'en')
          assert.match(
            (await error.textContent()) ?? '',
            /^The model server cannot be reached \(cannot reach .*connection refused.*\)\. Start it, or point Riverse at another one \(RIVERSE_MODEL, OPENAI_BASE_URL/,
          );
        // The page's words around the reason, with the fix: what to start or which setting to change.
        const [before, after] = pageSays(language, 'modelUnreachable').split('{reason}') as [string, string];
        const said = (await error.textContent()) ?? '';
        assert.ok(said.startsWith(before) && said.endsWith(after), `${language}: ${said}`);
        // The reason too is in the page's language (it was English inside the Chinese and Japanese pages).
        const reason = {
          en: /cannot reach .* connection refused/,
          zh: /无法连接 .*连接被拒绝/,
          ja: /に接続できません：接続を拒否されました/,
        };
        assert.match(said.slice(before.length), reason[language]);
        assert.equal(await lost.locator('.message.note').count(), 1, 'no retry notices left beside it');
        assert.equal(await lost.locator('.message.assistant').count(), 0, 'no reply saying the same');
        await screenshot(lost, `unreachable-${size.width}-${language}`);
      }
      assert.deepEqual(lostProblems, []);
      await lost.close();
    },
  );

  await t.test(
    'no model: the "Connect a model" card fits the chat panel and is read whole, at both widths in en, zh and ja',
    async (tt) => {
      const bare = await startTestService(tt);
      const { page: fresh, problems: freshProblems } = await openPage(browser, `${bare.url}#/chat`);
      const inside = async (inner: Locator, outer: Locator) => {
        const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
        return a !== null && b !== null && a.x >= b.x - 0.5 && a.x + a.width <= b.x + b.width + 0.5 && a.y >= b.y - 0.5;
      };
      for (const size of WIDTHS)
        for (const language of PAGE_LANGUAGES) {
          const at = `${size.width}×${size.height} in ${language}`;
          await fresh.setViewportSize(size);
          await fresh.evaluate(() =>
            (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
          );
          await fresh.locator('#language-select').selectOption(language);
          const panel = fresh.locator('[data-panel="connect"]');
          await panel
            .locator('.connect-hint', { hasText: { en: 'No model', zh: '尚未连接', ja: 'モデルが' }[language] })
            .waitFor();
          assert.ok(await inside(panel, fresh.locator('.conversation')), `${at}: the card is inside the chat panel`);
          assert.ok(
            await inside(panel.locator('[data-action="download-model"]'), panel),
            `${at}: the download button is inside the card`,
          );
          // Read whole: the card does not scroll inside itself (at 1280×800 it did, by the few pixels the
          // empty transcript's minimum height took), and its text is not cut.
          const card = await panel.evaluate((el: object) => {
            const box = el as { scrollHeight: number; clientHeight: number };
            return { scrollHeight: box.scrollHeight, clientHeight: box.clientHeight };
          });
          assert.ok(
            card.scrollHeight <= card.clientHeight + 1,
            `${at}: the card does not scroll inside itself (${card.scrollHeight} vs ${card.clientHeight})`,
          );
          const [cardBox, hintBox] = [await panel.boundingBox(), await panel.locator('.connect-hint').boundingBox()];
          assert.ok(
            cardBox !== null && hintBox !== null && hintBox.y + hintBox.height <= cardBox.y + cardBox.height + 0.5,
            `${at}: the hint is not cut`,
          );
          if (size.width === 1280) {
            // On a desktop the page does not scroll at all: the composer is in view as it opens.
            const height = await fresh.evaluate(
              () =>
                (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document
                  .documentElement.scrollHeight,
            );
            assert.ok(height <= size.height, `${at}: the page does not scroll (${height} px tall)`);
          }
          // On a phone the page scrolls to the Download button, which nothing covers (the composer stays at
          // the foot of the screen).
          const button = panel.locator('[data-action="download-model"]');
          await button.scrollIntoViewIfNeeded();
          const shown = await button.boundingBox();
          assert.ok(
            shown !== null && shown.y >= 0 && shown.y + shown.height <= size.height + 0.5,
            `${at}: the Download button is on the screen`,
          );
          assert.ok(
            await button.evaluate((el: object) => {
              const b = (
                el as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }
              ).getBoundingClientRect();
              const g = globalThis as unknown as {
                document: { elementFromPoint(x: number, y: number): object | null };
              };
              const top = g.document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
              return top === el || (el as { contains(other: object | null): boolean }).contains(top);
            }),
            `${at}: nothing covers the Download button`,
          );
          const composer = await fresh.locator('.composer').boundingBox();
          assert.ok(
            composer !== null && composer.y + composer.height <= size.height + 0.5,
            `${at}: the composer is in view`,
          );
          assert.ok((await pageWidth(fresh)) <= size.width, `${at}: no sideways scrolling`);
          await screenshot(fresh, `connect-${size.width}-${language}`);
        }
      await fresh.locator('#language-select').selectOption('en');
      assert.deepEqual(freshProblems, []);
      await fresh.close();
    },
  );

  assert.deepEqual(problems, [], 'the page logged no errors');
});
