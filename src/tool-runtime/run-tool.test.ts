import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BaseTool } from '../tools/base-tool.ts';
import { runTool } from './run-tool.ts';
import type { ToolContext } from '../tools/tool-context.ts';
import type { ToolManifest } from '../tools/tool-manifest.ts';
import { ToolResult } from '../tools/tool-result.ts';

class GreeterTool extends BaseTool<{ name: string; times: number }> {
  manifest(): ToolManifest {
    return {
      name: 'greeter',
      description: 'Greets someone',
      parameters: { name: { type: 'string', required: true }, times: { type: 'integer', default: 1 } },
      examples: ['greet Ann', 'say hello to Bo'],
    };
  }
  execute(params: { name: string; times: number }, context: ToolContext): ToolResult {
    const greeting = String(context.config.greeting ?? 'Hello');
    return ToolResult.ok(
      `${Array.from({ length: params.times }, () => `${greeting} ${params.name}`).join(' / ')} [${context.sessionId}]`,
    );
  }
}

class SleepyTool extends BaseTool {
  manifest(): ToolManifest {
    return { name: 'sleepy', description: 'Sleeps', examples: ['sleep', 'nap'] };
  }
  async execute(_params: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 5000);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    return ToolResult.ok('woke');
  }
}

class BadNameTool extends BaseTool {
  manifest(): ToolManifest {
    return { name: 'bad name', description: '', examples: ['a', 'b'] };
  }
  execute(): ToolResult {
    return ToolResult.ok('never');
  }
}

class NoExamplesTool extends BaseTool {
  manifest(): ToolManifest {
    return { name: 'no_examples', description: 'Has no examples' };
  }
  execute(): ToolResult {
    return ToolResult.ok('fine');
  }
}

class ConfigReaderTool extends BaseTool {
  manifest(): ToolManifest {
    return { name: 'config_reader', description: 'Reads the config', examples: ['a', 'b'] };
  }
  execute(): ToolResult {
    return ToolResult.ok(JSON.stringify(this.config));
  }
}

describe('runTool', () => {
  test('runs a tool class as the registry would: coercion, defaults, its config section', async () => {
    assert.deepEqual(
      await runTool(GreeterTool, { name: 'Ann', times: '2' }, { config: { tools: { greeter: { greeting: 'Hi' } } } }),
      {
        success: true,
        data: 'Hi Ann / Hi Ann [test]',
      },
    );
    assert.deepEqual(await runTool(GreeterTool, { name: 'Bo' }), { success: true, data: 'Hello Bo [test]' });
    assert.equal((await runTool(GreeterTool, { name: 'Cy' }, { sessionId: 'mine' })).data, 'Hello Cy [mine]');
  });

  test('the whole config reaches the constructor', async () => {
    const config = { tools: { config_reader: { x: 1 } }, other: 'value' };
    assert.deepEqual(JSON.parse((await runTool(ConfigReaderTool, {}, { config })).data), config);
    assert.equal((await runTool(ConfigReaderTool, {})).data, '{}');
  });

  test('accepts an instance', async () => {
    const tool = new GreeterTool({ tools: { greeter: { greeting: 'Hey' } } });
    assert.equal((await runTool(tool, { name: 'Di' })).data, 'Hey Di [test]');
  });

  test('bad parameters are a failed result, not an exception', async () => {
    const result = await runTool(GreeterTool, { nam: 'Ann' });
    assert.equal(result.code, 'invalid-params');
    assert.match(result.error ?? '', /missing required parameter "name"/);
    assert.match(result.error ?? '', /unknown parameter "nam" \(did you mean "name"\?\)/);
  });

  test('time limit and cancellation apply', async () => {
    assert.equal((await runTool(SleepyTool, {}, { timeoutMs: 20 })).code, 'timeout');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    assert.equal((await runTool(SleepyTool, {}, { signal: controller.signal })).code, 'aborted');
  });

  test('throws on an invalid manifest, listing the problems', async () => {
    await assert.rejects(runTool(BadNameTool, {}), (error: Error) => {
      assert.match(error.message, /^Invalid manifest:/);
      assert.match(error.message, /- name: name "bad name" is invalid/);
      assert.match(error.message, /- description: description is empty/);
      return true;
    });
  });

  test('manifest warnings do not stop it', async () => {
    assert.deepEqual(await runTool(NoExamplesTool, {}), { success: true, data: 'fine' });
  });
});
