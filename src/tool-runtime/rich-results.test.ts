// Issue 21: rich results, progress and logs through every kind of host — parts (bytes as a
// Uint8Array or base64) cross whole, `structured` is checked against `output`, a full JSON Schema
// checks arguments, and a tool that floods progress or logs is throttled. Real files and hosts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AppConfig } from '../tools/app-config.ts';
import type { LogReport, ProgressReport } from '../tools/call-report.ts';
import { BaseTool } from '../tools/base-tool.ts';
import { checkToolResult, truncateResult } from '../tools/tool-result.ts';
import { renderPhrase } from '../core/phrase.ts';
import { resultProblem } from '../tools/tool-result.ts';
import { runTool } from './run-tool.ts';
import { tempDir, toolSource, writeFiles, type Cleanup } from './test-support.ts';
import { registrySetup, ToolRegistry } from './tool-registry.ts';
import { compileSchema } from '../schema/compile-schema.ts';
import { validateManifest } from './validate-manifest.ts';

async function load(t: Cleanup, files: Record<string, string>, config: AppConfig = {}): Promise<ToolRegistry> {
  const dir = await tempDir(t);
  await writeFiles(dir, files);
  const { workers } = registrySetup({ config });
  t.after(() => workers.close());
  return ToolRegistry.load({ folders: [dir], config, baseDir: dir, workers });
}

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const TOOLS = {
  'picture.ts': toolSource('picture', {
    execute: `const bytes = new Uint8Array(5000); bytes[0] = 137; bytes[4999] = 7;
      return { success: true, content: [{ type: 'text', text: 'a chart' }, { type: 'image', data: bytes, mimeType: 'image/png' },
        { type: 'audio', data: ${JSON.stringify(PIXEL)}, mimeType: 'audio/wav' }, { type: 'resource', uri: 'file:///tmp/a.csv', text: 'a,b' }] };`,
  }),
  'album.ts': toolSource('album', {
    execute: `const photo = () => ({ type: 'image', data: new Uint8Array(600), mimeType: 'image/jpeg' });
      return { success: true, data: 'two photos', content: [photo(), photo()] };`,
  }),
  'steps.ts': toolSource('steps', {
    execute: `for (let step = 1; step <= 3; step++) { context.progress(step, 3, 'step ' + step); context.log(step === 3 ? 'warn' : 'info', 'did ' + step); await new Promise((resolve) => setTimeout(resolve, 5)); }
      return ToolResult.ok('done');`,
  }),
  'flood.ts': toolSource('flood', {
    execute: `for (let step = 1; step <= 200000; step++) { context.progress(step, 200000); context.log('debug', 'line ' + step); }
      return ToolResult.ok('flooded');`,
  }),
  'weather.ts': toolSource('weather', {
    manifest: `output: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
      parameters: { bad: { type: 'boolean' } },`,
    execute: `return params.bad ? { success: true, data: 'hot', structured: { temperature: 'hot' } } : { success: true, data: '21', structured: { temperature: 21 } };`,
  }),
  'contact.ts': toolSource('contact', {
    manifest: `inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object',
      $defs: { address: { $anchor: 'addr', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' }, via: { enum: ['phone', 'email'] }, phone: { type: 'string' } },
      if: { properties: { via: { const: 'phone' } }, required: ['via'] }, then: { required: ['phone'] }, additionalProperties: false },`,
    execute: `return ToolResult.ok(params.name + ' in ' + params.address.city);`,
  }),
};

for (const kind of ['process', 'worker', 'none'] as const) {
  describe(`rich results (${kind})`, () => {
    test('parts cross whole: a Uint8Array stays bytes, base64 stays text, data is the text parts', async (t) => {
      const registry = await load(t, TOOLS, { tools: { isolation: kind } });
      const result = await registry.execute('picture', {});
      assert.equal(result.success, true, JSON.stringify(result).slice(0, 300));
      assert.equal(result.data, 'a chart');
      const [text, image, audio, resource] = result.content ?? [];
      assert.deepEqual(text, { type: 'text', text: 'a chart' });
      assert.ok(image?.type === 'image' && image.data instanceof Uint8Array, 'the image is bytes');
      assert.equal(image.data.byteLength, 5000);
      assert.deepEqual([image.data[0], image.data[4999]], [137, 7]);
      assert.deepEqual(audio, { type: 'audio', data: PIXEL, mimeType: 'audio/wav' });
      assert.deepEqual(resource, { type: 'resource', uri: 'file:///tmp/a.csv', text: 'a,b' });
    });

    test('tools.max_result_bytes caps the parts where the tool runs, with a visible marker', async (t) => {
      const registry = await load(t, TOOLS, { tools: { isolation: kind, max_result_bytes: 1000 } });
      const result = await registry.execute('album', {});
      assert.equal(result.success, true);
      assert.equal(result.content?.length, 2);
      assert.equal(result.content?.[0]?.type, 'image');
      assert.deepEqual(result.content?.[1], {
        type: 'text',
        text: '…[cut: image image/jpeg of 600 bytes left out; a result may carry 1000 bytes in all (tools.max_result_bytes)]',
      });
    });

    test('progress and log lines reach the caller as they come, in order, levels as MCP names them', async (t) => {
      const registry = await load(t, TOOLS, { tools: { isolation: kind } });
      const progress: ProgressReport[] = [];
      const logs: LogReport[] = [];
      const result = await registry.execute(
        'steps',
        {},
        {
          onProgress: (report) => progress.push(report),
          onLog: (report) => logs.push(report),
        },
      );
      assert.equal(result.data, 'done');
      assert.deepEqual(progress, [
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
      assert.deepEqual(logs, [
        { level: 'info', message: 'did 1' },
        { level: 'info', message: 'did 2' },
        { level: 'warning', message: 'did 3' },
      ]);
    });

    test('a tool that floods progress and logs is throttled: a bounded number reach the caller, the last progress among them', async (t) => {
      const registry = await load(t, TOOLS, { tools: { isolation: kind } });
      const progress: ProgressReport[] = [];
      let logs = 0;
      const started = performance.now();
      const result = await registry.execute(
        'flood',
        {},
        {
          onProgress: (report) => progress.push(report),
          onLog: () => logs++,
        },
      );
      const seconds = (performance.now() - started) / 1000;
      assert.equal(result.data, 'flooded');
      // At most the burst, then the rate for as long as the call took (and the last report held back).
      assert.ok(
        progress.length <= 10 + Math.ceil(seconds * 10) + 1,
        `${progress.length} progress reports in ${seconds} s`,
      );
      assert.ok(logs <= 50 + Math.ceil(seconds * 20), `${logs} log lines in ${seconds} s`);
      assert.ok(logs >= 1 && progress.length >= 2);
      assert.deepEqual(progress.at(-1), { progress: 200000, total: 200000 });
    });

    test("a structured value is checked against the manifest's output schema", async (t) => {
      const registry = await load(t, TOOLS, { tools: { isolation: kind } });
      assert.deepEqual(await registry.execute('weather', {}), {
        success: true,
        data: '21',
        structured: { temperature: 21 },
      });
      const wrong = await registry.execute('weather', { bad: true });
      assert.equal(wrong.code, 'invalid-result');
      assert.match(
        wrong.error ?? '',
        /weather returned a "structured" value that does not match its manifest's output schema: \/temperature must be number/,
      );
    });

    test('a full JSON Schema (inputSchema) checks the arguments, $ref and if/then included', async (t) => {
      const registry = await load(t, TOOLS, { tools: { isolation: kind } });
      assert.equal((await registry.execute('contact', { name: 'Ann', address: { city: 'Oslo' } })).data, 'Ann in Oslo');
      const noCity = await registry.execute('contact', { name: 'Ann', address: {} });
      assert.equal(noCity.code, 'invalid-params');
      const noPhone = await registry.execute('contact', { name: 'Ann', address: { city: 'Oslo' }, via: 'phone' });
      assert.equal(noPhone.code, 'invalid-params', JSON.stringify(noPhone));
      const tool = registry.get('contact')!;
      assert.equal((tool.schema as { $schema?: string }).$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.deepEqual(Object.keys(tool.manifest.parameters ?? {}), ['name', 'address', 'via', 'phone']);
      // A provider's dialect is given what the reference points at.
      const strict = compileSchema(tool.schema, 'gemini') as { properties: Record<string, { properties?: object }> };
      assert.deepEqual(Object.keys(strict.properties.address?.properties ?? {}), ['city']);
    });
  });
}

describe('the contract', () => {
  test('a manifest gives its parameters one way; inputSchema and output are JSON Schema objects that compile', () => {
    const problems = (extra: Record<string, unknown>) =>
      validateManifest({ name: 'x', description: 'X', examples: ['a', 'b'], ...extra })
        .filter((problem) => problem.severity === 'error')
        .map((problem) => `${problem.path}: ${problem.message}`);
    assert.deepEqual(problems({ inputSchema: { type: 'object' }, output: { type: 'object' } }), []);
    assert.deepEqual(problems({ input_schema: { type: 'object', properties: { a: { type: 'string' } } } }), []);
    assert.deepEqual(problems({ parameters: {}, inputSchema: { type: 'object' } }), [
      'inputSchema: give the parameters one way only: parameters, inputSchema are both set (keep inputSchema for a full JSON Schema, parameters for the short form)',
    ]);
    assert.deepEqual(problems({ inputSchema: { type: 'string' } }), [
      'inputSchema.type: inputSchema must describe an object of named arguments: its "type" is "object" (got "string")',
    ]);
    assert.deepEqual(problems({ output: 'an object' }), [
      "output: output must be a JSON Schema object for the result's \"structured\" value, such as { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }",
    ]);
    assert.match(
      problems({ inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } })[0] ?? '',
      /^inputSchema: inputSchema is not a JSON Schema the validator can use: /,
    );
  });

  test('data may be left out when content is given: it is the text parts, joined by lines', () => {
    assert.deepEqual(
      checkToolResult({
        success: true,
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two', extra: 1 },
        ],
      }),
      {
        success: true,
        data: 'one\ntwo',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    );
  });

  test('a bad part is named by its index and what is wrong, in each language', () => {
    const value = {
      success: true,
      content: [
        { type: 'text', text: 'ok' },
        { type: 'image', data: 'not base64!', mimeType: 'image/png' },
      ],
    };
    assert.equal(
      checkToolResult(value),
      'returned "content[1]" whose "data" is wrong: it must be base64 text or a Uint8Array',
    );
    const problem = resultProblem(value)!;
    assert.match(renderPhrase(problem, 'zh')!, /content\[1\].*base64/);
    assert.match(renderPhrase(problem, 'ja')!, /content\[1\].*base64/);
    assert.match(
      checkToolResult({ success: true, content: [{ type: 'video', data: '' }] }) as string,
      /"content\[0\]" of type "video"; a part's type is "text", "image", "audio" or "resource"/,
    );
    assert.match(
      checkToolResult({ success: true, content: [{ type: 'image', data: PIXEL, mimeType: 'png' }] }) as string,
      /"mimeType" is wrong: it must be a MIME type starting with "image\/"/,
    );
    assert.match(
      checkToolResult({ success: true, content: [{ type: 'resource', uri: 'file:///a' }] }) as string,
      /either "text" or "blob"/,
    );
    assert.match(checkToolResult({ success: true, data: '', structured: new Map() }) as string, /"structured"/);
  });

  test("the result's byte cap cuts parts with a visible marker, and keeps what fits as it is", () => {
    const image = { type: 'image' as const, data: new Uint8Array(600), mimeType: 'image/png' };
    const result = { success: true, data: 'two pictures', content: [image, { ...image, data: new Uint8Array(600) }] };
    const cut = truncateResult(result, 1000, 1000);
    assert.equal(cut.content?.[0], image, 'the part that fits is the same object');
    assert.deepEqual(cut.content?.[1], {
      type: 'text',
      text: '…[cut: image image/png of 600 bytes left out; a result may carry 1000 bytes in all (tools.max_result_bytes)]',
    });
    assert.equal(truncateResult(result, 1000, 2000), result);
  });

  test('runTool: a tool with output and no structured value fails clearly; progress with a wrong argument throws in the tool', async () => {
    class Forgetful extends BaseTool {
      manifest() {
        return { name: 'forgetful', description: 'Forgets its structured value', output: { type: 'object' } };
      }
      execute() {
        return { success: true, data: 'nothing' };
      }
    }
    const forgot = await runTool(Forgetful, {});
    assert.equal(forgot.code, 'invalid-result');
    assert.match(
      forgot.error ?? '',
      /declares an output schema \(its manifest's "output"\) but returned no "structured" value/,
    );
    class Careless extends BaseTool {
      manifest() {
        return { name: 'careless', description: 'Reports progress wrongly' };
      }
      execute(_params: object, context: import('../tools/tool-context.ts').ToolContext) {
        context.progress(Number.NaN);
        return { success: true, data: 'never' };
      }
    }
    const careless = await runTool(Careless, {});
    assert.equal(careless.code, 'threw');
    assert.match(careless.error ?? '', /context\.progress\(\) takes a number of at least 0 first \(got NaN\)/);
  });
});
