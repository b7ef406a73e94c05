// The view /api/tools gives of a tool that comes from a source rather than a file (an MCP server's).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { registerTool } from '../../tool-runtime/registered-tool.ts';
import type { ToolSource } from '../../tool-runtime/tool-source.ts';
import { loadTools, toolSource } from '../../tool-runtime/test-support.ts';
import { ToolRegistry } from '../../tool-runtime/tool-registry.ts';
import { toolView } from './tool-view.ts';

it("an MCP server's tool: its source named as the server, and its schema as the server wrote it", async () => {
  const schema = {
    type: 'object',
    properties: { path: { type: 'string', description: 'A path' }, depth: { type: 'integer', minimum: 0 } },
    required: ['path'],
  };
  const manifest = {
    name: 'files__list',
    description: 'Lists a folder',
    parameters: { path: { type: 'string' as const, description: 'A path' } },
    examples: ['list it'],
  };
  const tool = registerTool({ name: 'files__list', file: 'mcp:files', manifest }, {}, () => 'ok', 'none', schema);
  const source: ToolSource = {
    snapshot: () => ({ tools: [tool], unavailable: [], diagnostics: [] }),
    onChange: () => () => {},
  };
  const registry = await ToolRegistry.load({ folders: [], sources: [source] });
  const view = toolView(registry, 'files__list', { config: {}, baseDir: '/project', language: 'ja' })!;
  assert.equal(view.file, 'mcp:files');
  assert.equal(view.source, 'mcp:files');
  assert.deepEqual(view.parameters, schema);
  assert.equal(view.available, true);
});

it("a tool's own reason for being off, in the reader's language when it gave one per language", async (t) => {
  const source = toolSource('quote_lookup', {
    members: `isAvailable() { return this.unavailable({ en: 'set an API key', zh: '请设置 API 密钥', ja: 'API キーを設定してください' }); }`,
  });
  const plain = toolSource('plain_lookup', {
    members: `isAvailable() { return this.unavailable('set a plain key'); }`,
  });
  for (const isolation of ['none', 'worker', 'process'] as const) {
    const { registry } = await loadTools(t, { 'quote.ts': source, 'plain.ts': plain }, {}, isolation);
    const view = (name: string, language: 'en' | 'zh' | 'ja') =>
      toolView(registry, name, { config: {}, baseDir: '/project', language })!.reason;
    assert.equal(view('quote_lookup', 'en'), 'set an API key', isolation);
    assert.equal(view('quote_lookup', 'zh'), '请设置 API 密钥', isolation);
    assert.equal(view('quote_lookup', 'ja'), 'API キーを設定してください', isolation);
    assert.equal(view('plain_lookup', 'ja'), 'set a plain key', isolation);
  }
});
