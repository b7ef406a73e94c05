import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TOOLS_SETTINGS } from '../tools/app-config.ts';
import { CONFIG_FIELDS, TOOLS_FIELDS } from './riverse-config.ts';
import { validateConfig } from './validate-config.ts';

describe('the riverse.yaml schema', () => {
  test('the tools: settings it checks are the ones the tool contract treats as settings, not tool sections', () => {
    // The types tie the table to ToolsConfig; this ties it to the list the loader reads at run time.
    assert.deepEqual(Object.keys(TOOLS_FIELDS).sort(), [...TOOLS_SETTINGS].sort());
  });

  test('a mapping message lists the keys of its table', () => {
    assert.deepEqual(validateConfig({ model_options: 'fast' }), [
      { path: ['model_options'], message: 'expected a mapping (base_url, api_key, tool_calling, strict_tools, timeout_ms, max_retries, max_reply_chars, max_tool_call_chars), got string "fast"' },
    ]);
    assert.deepEqual(Object.keys(CONFIG_FIELDS), ['model', 'data_dir', 'language', 'model_options', 'assistant', 'tools']);
  });

  test('keys it does not know, empty sections and tool sections pass', () => {
    assert.deepEqual(validateConfig({ source: 'env', model_options: null, assistant: { name: 'Riv' }, tools: { weather: { key: 'k', enabled: true }, clock: null } }), []);
  });
});
