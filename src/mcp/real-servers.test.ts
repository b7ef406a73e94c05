// Our client against MCP servers we did not write, from npm, over stdio: the reference
// "everything" server (every kind of content) and the filesystem server.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../tool-runtime/test-support.ts';
import { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { McpTools } from './mcp-tools.ts';

const packages = new URL('../../node_modules/@modelcontextprotocol/', import.meta.url).pathname;

test('@modelcontextprotocol/server-everything: schemas, coercion, text, structured content and images', async (t) => {
  const dir = await tempDir(t, 'riverse-everything-');
  const tools = await McpTools.start({
    config: {
      mcp: {
        startup_timeout_ms: 60_000,
        servers: {
          everything: { command: process.execPath, args: [join(packages, 'server-everything/dist/index.js'), 'stdio'] },
        },
      },
    },
    baseDir: dir,
  });
  t.after(() => tools.close());
  const registry = await ToolRegistry.load({ folders: [], sources: [tools], isolation: 'none' });
  assert.equal(tools.statuses()[0]!.state, 'connected');
  const sum = registry.get('everything__get-sum')!;
  assert.deepEqual(sum.schema.required, ['a', 'b']);
  assert.equal(
    typeof (sum.schema as { $schema?: unknown }).$schema,
    'string',
    'the schema is kept whole, $schema included',
  );
  assert.match((await registry.execute('everything__get-sum', { a: '2', b: 3 })).data, /5/);
  assert.equal((await registry.execute('everything__get-sum', { a: 2 })).code, 'invalid-params');
  assert.match((await registry.execute('everything__echo', { message: 'hi there' })).data, /hi there/);
  const weather = await registry.execute('everything__get-structured-content', { location: 'Chicago' });
  assert.equal(weather.success, true);
  assert.match(weather.data, /"temperature":/);
  assert.equal(
    (await registry.execute('everything__get-structured-content', { location: 'Atlantis' })).code,
    'invalid-params',
  );
  assert.deepEqual(weather.structured && Object.keys(weather.structured).sort(), [
    'conditions',
    'humidity',
    'temperature',
  ]);
  // The image comes through whole, as a part: its base64 bytes and type, not a placeholder.
  const image = (await registry.execute('everything__get-tiny-image', {})).content?.find(
    (part) => part.type === 'image',
  );
  assert.equal(image?.mimeType, 'image/png');
  assert.ok(typeof image?.data === 'string' && Buffer.from(image.data, 'base64').subarray(1, 4).toString() === 'PNG');
});

test('@modelcontextprotocol/server-filesystem: writes and reads inside its folder, and its refusals are failed results', async (t) => {
  const dir = await tempDir(t, 'riverse-filesystem-');
  const tools = await McpTools.start({
    config: {
      mcp: {
        startup_timeout_ms: 60_000,
        servers: {
          files: { command: process.execPath, args: [join(packages, 'server-filesystem/dist/index.js'), dir] },
        },
      },
    },
    baseDir: dir,
  });
  t.after(() => tools.close());
  const registry = await ToolRegistry.load({ folders: [], sources: [tools], isolation: 'none' });
  const note = join(dir, 'note.txt');
  assert.equal(
    (await registry.execute('files__write_file', { path: note, content: '日本語 and English' })).success,
    true,
  );
  assert.equal(await readFile(note, 'utf8'), '日本語 and English');
  assert.deepEqual(await registry.execute('files__read_text_file', { path: note }), {
    success: true,
    data: '日本語 and English',
    structured: { content: '日本語 and English' },
  });
  const outside = await registry.execute('files__read_text_file', { path: '/etc/hostname' });
  assert.equal(outside.code, 'mcp-tool-error');
  assert.match(outside.error!, /denied|outside|not allowed/i);
});
