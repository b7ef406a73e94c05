// The MCP sign-in banner in a real browser: a link an MCP server's sign-in makes appears above the
// page as it is made (the mcp-sign-in event), in the page's language, and goes once it is used.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signIns } from '../../mcp/oauth/sign-ins.ts';
import { startTestService } from '../server-test-support.ts';
import { openBrowser, openPage, skipWithoutChromium } from './browser-test-support.ts';

test('the MCP sign-in banner in Chromium', { skip: skipWithoutChromium, timeout: 120_000 }, async (t) => {
  const service = await startTestService(t, { files: {} });
  const browser = await openBrowser(t);
  const { page, problems } = await openPage(browser, `${service.url}#/chat`);
  const banner = page.locator('#mcp-sign-ins');
  await page.locator('#model-badge:not([hidden])').waitFor();
  assert.equal(await banner.isHidden(), true, 'nothing to show before a server asks');

  const state = signIns.newState();
  t.after(() => signIns.cancel('notes'));
  signIns.begin('notes', new URL(`https://auth.example/authorize?state=${state}`), state);
  const card = banner.locator('.mcp-sign-in');
  await card.waitFor();
  assert.equal(await card.locator('h3').textContent(), 'notes needs you to sign in');
  const link = card.getByRole('link', { name: 'Sign in to notes' });
  assert.equal(await link.getAttribute('href'), `https://auth.example/authorize?state=${state}`);
  assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');

  await page.locator('#language-select').selectOption('ja');
  assert.equal(await card.locator('h3').textContent(), 'notes にサインインが必要です');

  signIns.cancel('notes');
  // The banner follows the list when the tools change (a server that signed in brings its tools) or the page reconnects.
  await page.reload();
  await page.locator('#model-badge:not([hidden])').waitFor();
  await banner.waitFor({ state: 'hidden' });
  assert.deepEqual(problems, []);
});
