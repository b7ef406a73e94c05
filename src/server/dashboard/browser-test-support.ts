// Test support for the dashboard's Chromium suites (*.browser.test.ts; not a test itself): Debian's
// Chromium with a fresh profile, and a tab that records what the page complains about.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { STATIC_DIR } from './static-files.ts';

const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const missing = !existsSync(CHROMIUM);
/** In CI a missing browser is a failure (.ci/run installs it); elsewhere the suite says why it skips. */
export const skipWithoutChromium =
  missing && !process.env.CI
    ? `${CHROMIUM} is not installed (apt-get install -y --no-install-recommends chromium; .ci/run does)`
    : false;
// Without the background-networking flags Chromium keeps trying to reach Google's hosts.
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Chromium with a fresh profile, in English; closed and removed when the test ends. */
export async function openBrowser(
  t: TestContext,
  viewport: { width: number; height: number } | null = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  if (missing)
    throw new Error(
      `${CHROMIUM} is missing: the browser test needs Debian's chromium (apt-get install -y --no-install-recommends chromium; .ci/run installs it).`,
    );
  const profile = await mkdtemp(join(tmpdir(), 'riverse-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: LAUNCH_ARGS,
    ...(viewport === null ? {} : { viewport }),
    locale: 'en-US',
    timeout: 60_000,
  });
  t.after(async () => {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
  });
  browser.setDefaultTimeout(15_000);
  return browser;
}

/** A new tab that records what the page complains about (script errors, CSP refusals, missing messages). */
export async function openPage(browser: BrowserContext, url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A refused request is the page's business (it shows it); script errors and CSP refusals are bugs.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(message.text());
  });
  await page.goto(url);
  return { page, problems };
}

/** The two sizes every point of the dashboard is seen at: a laptop and a phone. */
export const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
/** The page's languages, as its language switch offers them. */
export const PAGE_LANGUAGES = ['en', 'zh', 'ja'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

type Catalog = Record<PageLanguage, Record<string, string>>;
// The page's own catalog (a browser module, imported by a path tsc does not follow): a test expects
// in each language the words the page says, not a copy of them.
const { MESSAGES } = (await import(join(STATIC_DIR, 'messages.js'))) as { MESSAGES: Catalog };

/** What the page says for `key` in `language`, its `{placeholders}` filled in. */
export function pageSays(language: PageLanguage, key: string, vars: Record<string, string | number> = {}): string {
  const text = MESSAGES[language][key];
  if (text === undefined) throw new Error(`the dashboard has no message "${key}"`);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
