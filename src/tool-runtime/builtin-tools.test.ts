import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BUILTIN_TOOL_FOLDER, BUILTINS_BY_DEFAULT } from './builtin-tools.ts';
import { toolFolder, toolSource } from './test-support.ts';
import { LiveToolRegistry } from './live-registry.ts';
import { registrySetup, ToolRegistry } from './tool-registry.ts';

describe('the built-in tools beside the app’s own', () => {
  test('in this checkout they are its agent/tools, which a project elsewhere does not get by default', () => {
    assert.equal(BUILTIN_TOOL_FOLDER, join(import.meta.dirname, '..', '..', 'agent', 'tools'));
    assert.equal(BUILTINS_BY_DEFAULT, false);
    assert.deepEqual(registrySetup({ baseDir: '/app' }).folders, [join('/app', 'agent', 'tools')]);
  });

  test('asked for, they come after the app’s folders; tools.builtins: false leaves them out, even where a folder names them', () => {
    assert.deepEqual(registrySetup({ baseDir: '/app', builtins: true }).folders, [
      join('/app', 'agent', 'tools'),
      BUILTIN_TOOL_FOLDER,
    ]);
    const off = { tools: { builtins: false, dirs: ['mine', BUILTIN_TOOL_FOLDER] } };
    assert.deepEqual(registrySetup({ baseDir: '/app', config: off }).folders, [join('/app', 'mine')]);
    assert.deepEqual(registrySetup({ baseDir: '/app', config: off, builtins: true }).folders, [
      join('/app', 'mine'),
      BUILTIN_TOOL_FOLDER,
    ]);
  });

  test('they load with their safe defaults, switch one by one, and an app’s tool of the same name replaces one quietly', async (t) => {
    const app = await toolFolder(t, { 'agent/tools/current_time.ts': toolSource('current_time') });
    const load = (config = {}) => ToolRegistry.load({ baseDir: app, builtins: true, config, isolation: 'none' });
    const registry = await load({ tools: { web_fetch: { enabled: false } } });
    assert.deepEqual(
      registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
      [],
    );
    const tool = (name: string) => registry.list().find((row) => row.name === name);
    assert.equal(tool('current_time')?.file, join(app, 'agent', 'tools', 'current_time.ts'));
    assert.equal(tool('file_read')?.available, true);
    assert.equal(tool('file_read')?.file, join(BUILTIN_TOOL_FOLDER, 'file_read.ts'));
    assert.equal(tool('web_fetch')?.available, false);
    assert.equal(tool('file_write')?.available, false, 'off by default: it changes files');
  });

  test('an app’s tool saved while Riverse runs takes the name from the built-in holding it', async (t) => {
    const app = await toolFolder(t, { 'agent/tools/notes.ts': toolSource('notes') });
    const live = await LiveToolRegistry.open({ baseDir: app, builtins: true, isolation: 'none', watch: false });
    t.after(() => live.close());
    assert.equal(live.current.find('current_time')?.file, join(BUILTIN_TOOL_FOLDER, 'current_time.ts'));
    await writeFile(join(app, 'agent', 'tools', 'current_time.ts'), toolSource('current_time'));
    await live.reload();
    assert.equal(live.current.find('current_time')?.file, join(app, 'agent', 'tools', 'current_time.ts'));
    assert.deepEqual(
      live.current.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
      [],
    );
  });
});
