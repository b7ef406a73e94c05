// shell_exec: off by default; an exact allow-list; arguments reach the program as they are, with no
// shell to interpret them; time and output bounded; a minimal environment.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

describe('shell_exec', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'riverse-shell-')));
  let registry: ToolRegistry;
  before(async () => {
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      baseDir: root,
      config: {
        tools: {
          shell_exec: {
            enabled: true,
            timeout_ms: 500,
            max_output_bytes: 1000,
            allow: [
              { program: 'echo', args: ['.*'] },
              { program: 'ls', args: ['-l', '[a-z]+'] },
              { program: 'sleep', args: ['[0-9]+'] },
              { program: 'head', args: ['-c', '[0-9]+', '/dev/zero'] },
              { program: 'env' },
            ],
          },
        },
      },
    });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('off by default, saying how to turn it on', async () => {
    const fresh = await ToolRegistry.load({ folders: [TOOL_FOLDER], config: {} });
    const listing = fresh.list().find((tool) => tool.name === 'shell_exec');
    assert.equal(listing?.available, false);
    assert.match(listing?.reason ?? '', /tools\.shell_exec\.enabled: true/);
  });

  test('shell metacharacters are plain characters of one argument: nothing else runs', async () => {
    const marker = join(root, 'pwned');
    const hostile = [
      `; touch ${marker}`,
      `$(touch ${marker})`,
      `\`touch ${marker}\``,
      `| touch ${marker}`,
      `&& touch ${marker}`,
      `'"\n touch ${marker}`,
    ];
    const result = await registry.execute('shell_exec', { program: 'echo', args: hostile });
    assert.equal(result.success, true, result.error);
    assert.equal(result.data, `${hostile.join(' ')}\n`);
    assert.equal(existsSync(marker), false, 'no shell ran the injected command');
  });

  test('a program not on the list, or named by another path, is refused', async () => {
    for (const program of ['rm', 'sh', '/bin/sh', 'echo; rm', 'ech', 'ECHO']) {
      const result = await registry.execute('shell_exec', { program, args: ['x'] });
      assert.equal(result.success, false, program);
      assert.match(result.error ?? '', /is not an allowed program; allowed: echo, ls, sleep, head, env/, program);
    }
  });

  test('each argument must match a pattern in full: an injected option is refused', async () => {
    assert.match(
      (await registry.execute('shell_exec', { program: 'ls', args: ['-la'] })).error ?? '',
      /Argument 1 "-la" is not allowed for ls/,
    );
    assert.match(
      (await registry.execute('shell_exec', { program: 'ls', args: ['-l', 'etc/'] })).error ?? '',
      /Argument 2 "etc\/" is not allowed/,
    );
    assert.match(
      (await registry.execute('shell_exec', { program: 'env', args: ['sh'] })).error ?? '',
      /\(none: it takes no arguments\)/,
    );
  });

  test('a minimal environment: no variable of Riverse reaches the program', async () => {
    const result = await registry.execute('shell_exec', { program: 'env' });
    const names = result.data
      .trim()
      .split('\n')
      .map((line) => line.split('=')[0])
      .sort();
    assert.deepEqual(names, ['HOME', 'LANG', 'PATH']);
  });

  test('a time limit and an output cap', async () => {
    assert.match(
      (await registry.execute('shell_exec', { program: 'sleep', args: ['5'] })).error ?? '',
      /did not finish within 0\.5 s and was stopped/,
    );
    const flood = await registry.execute('shell_exec', { program: 'head', args: ['-c', '100000', '/dev/zero'] });
    assert.equal(flood.success, true);
    assert.match(flood.data, /output cut at 1,000 bytes/);
    assert.ok(flood.data.length < 1200);
  });

  test('a failing program: its exit code and stderr', async () => {
    const result = await registry.execute('shell_exec', { program: 'ls', args: ['-l', 'missing'] });
    assert.equal(result.success, false);
    assert.match(result.error ?? '', /ls exited with code 2\.\n\[stderr\]\n.*missing/);
  });

  test("its refusals are in the person's language, and so is what is wrong with the allow-list", async () => {
    const zh = await registry.execute('shell_exec', { program: 'rm', args: [] }, { language: 'zh' });
    assert.equal(zh.error, '"rm" 不是允许的程序；允许的有：echo, ls, sleep, head, env。');
    const ja = await registry.execute('shell_exec', { program: 'ls', args: ['-la'] }, { language: 'ja' });
    assert.match(ja.error ?? '', /^ls の 1 番目の引数 "-la" は許可されていません。/);
    const broken = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      config: { tools: { shell_exec: { enabled: true, allow: [{ args: ['x'] }] } } },
    });
    const texts = broken.find('shell_exec')?.reasonTexts;
    assert.equal(texts?.en, 'tools.shell_exec.allow[0] needs a program: { program: git, args: [status] }');
    assert.equal(texts?.zh, 'tools.shell_exec.allow[0] 需要一个程序：{ program: git, args: [status] }');
    assert.equal(texts?.ja, 'tools.shell_exec.allow[0] にはプログラムが必要です：{ program: git, args: [status] }');
  });
});
