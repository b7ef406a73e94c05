// The router kept in step with a watched tool folder: each save reaches the index through
// LiveToolRegistry.onChange, one tool at a time, as `chat` and `ask` wire it.
import assert from 'node:assert/strict';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LiveToolRegistry } from '../tool-runtime/live-registry.ts';
import { ToolRouter } from './tool-router.ts';

const toolFile = (name: string, description: string) => `import { BaseTool, ToolResult } from 'riverse';
export class T extends BaseTool {
  manifest() {
    return { name: ${JSON.stringify(name)}, description: ${JSON.stringify(description)} };
  }
  async execute() {
    return ToolResult.ok('');
  }
}
`;

/** Waits for a reload; the 30 s give-up is a safety bound, far past the target of under 1 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !condition(); ) {
    if (Date.now() - started > 30_000) assert.fail(`no ${what} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a tool file added, changed or removed reaches the router with the reload, changing only its own tools', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'riverse-router-reload-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'weather.ts'), toolFile('weather', 'The weather forecast for a city'));
  await writeFile(join(dir, 'email.ts'), toolFile('send_email', 'Send an email'));
  const live = await LiveToolRegistry.open({
    folders: [dir],
    baseDir: dir,
    watch: true,
    config: { tools: { isolation: 'none' } },
  });
  t.after(() => live.close());
  const router = new ToolRouter();
  assert.equal(router.sync(live.current.tools()), 2);
  const changed: number[] = [];
  live.onChange((_, registry) => changed.push(router.sync(registry.tools())));
  const top = (query: string) => router.search(query, 1)[0]?.name;

  await writeFile(join(dir, 'qr.ts'), toolFile('qr_code', 'Make a QR code from a link'));
  await until(() => top('qr code for my link') === 'qr_code', 'added tool in the index');
  // One save can bring more than one reload; together they indexed the new tool alone.
  const total = () => changed.reduce((sum, count) => sum + count, 0);
  assert.equal(total(), 1, 'only the new tool was indexed');

  await writeFile(join(dir, 'qr.ts'), toolFile('qr_code', 'Turn a text into a barcode picture'));
  await until(() => top('barcode picture') === 'qr_code', 'changed tool in the index');
  assert.equal(top('from a link'), undefined, 'its old words no longer find it');
  assert.equal(total(), 2);

  await unlink(join(dir, 'qr.ts'));
  await until(() => router.size === 2, 'removed tool out of the index');
  assert.equal(top('barcode picture'), undefined);
  assert.equal(top('forecast'), 'weather');
});
