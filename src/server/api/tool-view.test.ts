// The view /api/tools gives of a tool that comes from a source rather than a file (an MCP server's).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { registerTool } from '../../tool-runtime/registered-tool.ts';
import type { ToolSource } from '../../tool-runtime/tool-source.ts';
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
