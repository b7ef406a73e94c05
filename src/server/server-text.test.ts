// What the service prints to the person who started it is in their language and starts with its `error:`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { parseConfig } from '../config/load-config.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import { tempDir } from '../tool-runtime/test-support.ts';
import { createServerApp } from './create-server-app.ts';
import { serverOptions } from './server-config.ts';
import { createServerContext } from './server-context.ts';

/** A service over a store that is closed: reading it throws, as a bug would. */
async function brokenService(t: TestContext, language: 'en' | 'zh' | 'ja', said: string[]) {
  const dir = await tempDir(t);
  const config = parseConfig('', join(dir, 'riverse.yaml'));
  const tools = await LiveToolRegistry.open({ config, baseDir: dir, watch: false });
  t.after(() => tools.close());
  const store = SqliteStore.open(join(dir, 'data'));
  await store.close();
  t.mock.method(console, 'error', (line: string) => said.push(line));
  return createServerContext({
    tools,
    store,
    config: { config, baseDir: dir, file: join(dir, 'riverse.yaml') },
    logLanguage: language,
    dataDir: join(dir, 'data'),
    version: '0',
  });
}

for (const [language, start] of [
  ['en', /^error: the service failed while answering GET \/api\/sessions: /],
  ['zh', /^错误：服务在响应 GET \/api\/sessions 时出错：/],
  ['ja', /^エラー：サービスが GET \/api\/sessions への応答中に失敗しました：/],
] as const) {
  test(`a request the service fails on (a bug): its log says so in ${language}, as an error; the client gets a 500`, async (t) => {
    const said: string[] = [];
    const context = await brokenService(t, language, said);
    await new Promise((resolve) => setImmediate(resolve));
    said.length = 0; // the resumed approvals' line, tested below
    const app = createServerApp(context, serverOptions(undefined, { host: '127.0.0.1', port: 0 }, {}));
    const response = await app.request('http://127.0.0.1/api/sessions', { headers: { host: '127.0.0.1' } });
    assert.equal(response.status, 500);
    assert.equal(said.length, 1, said.join('\n'));
    assert.match(said[0]!, start);
  });
}

for (const [language, start] of [
  ['en', /^error: the calls approved before the service restarted could not be run: /],
  ['zh', /^错误：服务重启前已批准的调用无法运行：/],
  ['ja', /^エラー：サービスの再起動前に許可された呼び出しを実行できませんでした：/],
] as const) {
  test(`calls approved before a restart that cannot be run: said in ${language}, as an error`, async (t) => {
    // A store that is closed: reading the approved calls throws.
    const said: string[] = [];
    await brokenService(t, language, said);
    await new Promise((resolve) => setImmediate(resolve));
    const line = said.find((one) => start.test(one));
    assert.ok(line !== undefined, said.join('\n'));
    assert.doesNotMatch(line, /riverse:/);
  });
}

for (const [language, start] of [
  ['en', /^error: the tasks running when the service last stopped could not be marked interrupted: /],
  ['zh', /^错误：无法把服务上次停止时仍在运行的任务标记为已中断：/],
  ['ja', /^エラー：サービスが前回停止したときに実行中だったタスクを中断済みにできませんでした：/],
] as const) {
  test(`a store that fails as the service starts: the tasks left running are said in ${language}, and the service still starts`, async (t) => {
    const said: string[] = [];
    const context = await brokenService(t, language, said);
    assert.ok(context.tasks !== undefined, 'the service has its task runner all the same');
    assert.equal(said.filter((one) => start.test(one)).length, 1, said.join('\n'));
  });
}
