// What the service prints to the person who started it is in their language and starts with its `error:`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '../config/load-config.ts';
import { SessionStore } from '../store/session-store.ts';
import { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import { tempDir } from '../tool-runtime/test-support.ts';
import { createServerContext } from './server-context.ts';

for (const [language, start] of [
  ['en', /^error: the calls approved before the service restarted could not be run: /],
  ['zh', /^错误：服务重启前已批准的调用无法运行：/],
  ['ja', /^エラー：サービスの再起動前に許可された呼び出しを実行できませんでした：/],
] as const) {
  test(`calls approved before a restart that cannot be run: said in ${language}, as an error`, async (t) => {
    const dir = await tempDir(t);
    const config = parseConfig('', join(dir, 'riverse.yaml'));
    const tools = await LiveToolRegistry.open({ config, baseDir: dir, watch: false });
    t.after(() => tools.close());
    // A store that is closed: reading the approved calls throws.
    const store = SessionStore.open(join(dir, 'data'));
    store.close();
    const said: string[] = [];
    t.mock.method(console, 'error', (line: string) => said.push(line));
    createServerContext({
      tools,
      store,
      config: { config, baseDir: dir, file: join(dir, 'riverse.yaml') },
      logLanguage: language,
      dataDir: join(dir, 'data'),
      version: '0',
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(said.length, 1, said.join('\n'));
    assert.match(said[0]!, start);
    assert.doesNotMatch(said[0]!, /riverse:/);
  });
}
