// riverse.yaml to the Assistant's options, in the one function the CLI and the service share: each
// setting the assistant reads, what a caller adds winning over the file, and nothing added that the
// caller left out.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, it } from 'node:test';
import { Approvals } from '../assistant/approvals.ts';
import type { ChatModel } from '../models/chat-model.ts';
import { ToolRouter } from '../routing/tool-router.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { assistantLanguage, assistantOptions, sharedApprovals } from './assistant-options.ts';

const model: ChatModel = {
  id: 'test:model',
  toolCalling: 'native',
  stream: () => {
    throw new Error('no request is made here');
  },
};
/** Two registries told apart by identity; the options never call into them. */
const first = {} as ToolRegistry;
const second = {} as ToolRegistry;

describe('assistantOptions', () => {
  it('passes on a tool-calling mode the person chose, so that it wins over what the assistant learns of the model', () => {
    assert.equal(
      assistantOptions({ model_options: { tool_calling: 'native' } }, { model, tools: { current: first } }).toolCalling,
      'native',
    );
    assert.equal(
      assistantOptions({ model_options: { tool_calling: 'text' } }, { model, tools: { current: first } }).toolCalling,
      'text',
    );
    assert.equal(
      assistantOptions({}, { model, tools: { current: first } }).toolCalling,
      undefined,
      'left to the model',
    );
  });

  it('reads assistant:, routing: and language: from the config', () => {
    const options = assistantOptions(
      {
        language: 'ja',
        routing: { max_tools: 4 },
        assistant: {
          max_rounds: 3,
          history_tokens: 900,
          turn_timeout_ms: 5_000,
          approval_timeout_ms: 7_000,
          max_parallel_calls: 3,
        },
      },
      { model, tools: { current: first } },
    );
    assert.equal(options.model, model);
    assert.equal(options.language, 'ja');
    assert.deepEqual(options.routing, { max_tools: 4 });
    assert.deepEqual(
      {
        maxRounds: options.maxRounds,
        historyTokens: options.historyTokens,
        turnTimeoutMs: options.turnTimeoutMs,
        approvalTimeoutMs: options.approvalTimeoutMs,
        maxParallelCalls: options.maxParallelCalls,
      },
      { maxRounds: 3, historyTokens: 900, turnTimeoutMs: 5_000, approvalTimeoutMs: 7_000, maxParallelCalls: 3 },
    );
  });

  it('leaves out what neither the config nor the caller sets, so the assistant keeps its defaults', () => {
    const options = assistantOptions({}, { model, tools: { current: first } });
    assert.deepEqual(Object.keys(options).sort(), ['language', 'model', 'registry', 'routing']);
    assert.equal(options.language, 'auto');
    assert.equal(options.routing, null);
  });

  it('takes the registry anew at every turn, so that a reload is in the next one', () => {
    const tools = { current: first };
    const { registry } = assistantOptions({}, { model, tools });
    assert.equal(typeof registry, 'function');
    assert.equal((registry as () => ToolRegistry)(), first);
    tools.current = second;
    assert.equal((registry as () => ToolRegistry)(), second);
  });

  it('passes on the parts the caller adds, a fixed language winning over the file', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'riverse-options-'));
    const store = SqliteStore.open(dir);
    t.after(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    const router = new ToolRouter();
    const approvals = new Approvals();
    const options = assistantOptions(
      { language: 'ja' },
      { model, tools: { current: first }, store, router, approvals, language: 'zh' },
    );
    assert.equal(options.store, store);
    assert.equal(options.router, router);
    assert.equal(options.approvals, approvals);
    assert.equal(options.language, 'zh');
  });
});

describe('assistantLanguage', () => {
  it('is the caller’s, else the file’s, else auto', () => {
    assert.equal(assistantLanguage({ language: 'ja' }, 'en'), 'en');
    assert.equal(assistantLanguage({ language: 'ja' }), 'ja');
    assert.equal(assistantLanguage({}), 'auto');
  });
});

describe('sharedApprovals', () => {
  it('waits assistant.approval_timeout_ms, as an assistant’s own approvals would', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'riverse-options-'));
    const store = SqliteStore.open(dir);
    t.after(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    const tools = { current: first };
    assert.equal(sharedApprovals({ assistant: { approval_timeout_ms: 7_000 } }, { store, tools }).timeoutMs, 7_000);
    assert.equal(sharedApprovals({}, { store, tools }).timeoutMs, new Approvals().timeoutMs);
  });
});

describe('one way from the config to an assistant', () => {
  it('is this file: outside src/assistant, no code maps assistant: itself or builds an Assistant another way', async () => {
    const src = join(import.meta.dirname, '..');
    const files = (await readdir(src, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const elsewhere: string[] = [];
    for (const file of files) {
      if (file.startsWith(`assistant${sep}`) || file === join('config', 'assistant-options.ts')) continue;
      const source = await readFile(join(src, file), 'utf8');
      if (source.includes('assistantLimits(') || /new Assistant\((?!\s*assistantOptions\()/.test(source))
        elsewhere.push(file);
    }
    assert.deepEqual(elsewhere, []);
  });
});
