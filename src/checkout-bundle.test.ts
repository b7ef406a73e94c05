// The checkout's CLI bundled (scripts/checkout-bundle.mjs): made once, used only while every file
// it was made from is unchanged, and the same program as the sources where it matters.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCommand, show } from './cli/cli-test-support.ts';

const { checkoutEntry } = (await import(new URL('../scripts/checkout-bundle.mjs', import.meta.url).href)) as {
  checkoutEntry(cacheDir?: string): Promise<string | undefined>;
};

const scratch = mkdtempSync(join(tmpdir(), 'riverse-bundle-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

type Current = { folder: string; inputs: Array<[string, number, number]> };
const readCurrent = (cacheDir: string) => JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8')) as Current;

describe('the checkout bundle', () => {
  // Inside the checkout, as its own is: the bundle's packages are found from where it is.
  const cacheDir = fileURLToPath(
    new URL(`../node_modules/.cache/riverse-checkout-test-${process.pid}`, import.meta.url),
  );
  after(() => rmSync(cacheDir, { recursive: true, force: true }));
  let bundled: string;

  test('is made once, from every Riverse file the CLI and the tool host import, and used while they are unchanged', async () => {
    bundled = (await checkoutEntry(cacheDir))!;
    assert.ok(bundled?.endsWith('/cli.js'), `a bundle: ${bundled}`);
    const files = readCurrent(cacheDir).inputs.map(([file]) => file);
    const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
    for (const file of ['cli/main.ts', 'tool-runtime/isolation/tool-worker.ts', 'tool-api.ts', 'tools/base-tool.ts'])
      assert.ok(files.includes(source(file)), `${file} is among its inputs`);
    assert.ok(files.includes(source('../scripts/checkout-bundle.mjs')), 'and so is the script that makes it');
    assert.ok(!files.some((file) => file.includes('node_modules')), 'packages are not bundled');
    assert.equal(await checkoutEntry(cacheDir), bundled, 'the same bundle the next time');
  });

  test('is made again when a file it was made from changed, keeping the one this process uses', async () => {
    const current = readCurrent(cacheDir);
    const [file, size] = current.inputs[0]!;
    current.inputs[0] = [file, size, 0]; // as if the file had been saved since
    writeFileSync(join(cacheDir, 'current.json'), JSON.stringify(current));
    const remade = await checkoutEntry(cacheDir);
    assert.ok(remade !== undefined && remade !== bundled, `a new bundle: ${remade}`);
    assert.ok(existsSync(fileURLToPath(bundled)), 'the old one is still there: this process marked it used');
    bundled = remade;
  });

  test('runs a tool in Riverse’s process, a tool process and a worker thread, as the sources do', async () => {
    const project = join(scratch, 'project');
    mkdirSync(join(project, 'agent', 'tools'), { recursive: true });
    // The tool reports where its code runs, and whether what Riverse threw is the ContextUnavailable
    // it imports: a second copy of the tool contract in the bundle would make it another class.
    writeFileSync(
      join(project, 'agent', 'tools', 'where.ts'),
      `import { BaseTool, ContextUnavailable, ToolResult, type ToolContext, type ToolManifest } from 'riverse';
export class WhereTool extends BaseTool<Record<string, never>> {
  manifest(): ToolManifest {
    return { name: 'where', description: 'Says where it runs', parameters: {} };
  }
  async execute(_params: Record<string, never>, context: ToolContext): Promise<ToolResult> {
    let thrown: unknown;
    await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }).catch((error) => (thrown = error));
    return ToolResult.ok(JSON.stringify({ script: process.argv[1], contract: thrown instanceof ContextUnavailable }));
  }
}
`,
    );
    const run = async (isolation: string) => {
      writeFileSync(join(project, 'riverse.yaml'), `tools:\n  isolation: ${isolation}\n`);
      const result = await runCommand(
        process.execPath,
        ['--conditions=riverse-source', fileURLToPath(bundled), 'tools', 'run', 'where', '--json'],
        {
          cwd: project,
          env: { RIVERSE_CACHE_DIR: join(scratch, 'tool-cache'), RIVERSE_DATA_DIR: join(scratch, 'data') },
        },
      );
      assert.equal(result.code, 0, show(result));
      const { data } = JSON.parse(result.stdout) as { data: string };
      return { output: result.stdout, ran: JSON.parse(data) as { script: string; contract: boolean } };
    };
    const inProcess = await run('none');
    assert.equal(inProcess.ran.script, fileURLToPath(bundled), `in the bundled CLI's own process: ${inProcess.output}`);
    assert.equal(inProcess.ran.contract, true, 'one tool contract there');
    const hosted = await run('process');
    assert.equal(
      dirname(hosted.ran.script),
      dirname(fileURLToPath(bundled)),
      `the tool host runs the bundled tool-worker: ${hosted.output}`,
    );
    assert.equal(hosted.ran.contract, true, 'one tool contract in the host too');
    assert.equal((await run('worker')).ran.contract, true, 'and in a worker thread');
  });

  test('is not used under RIVERSE_FROM_SOURCES=1, nor where it cannot be made', async () => {
    process.env.RIVERSE_FROM_SOURCES = '1';
    try {
      assert.equal(await checkoutEntry(cacheDir), undefined);
    } finally {
      delete process.env.RIVERSE_FROM_SOURCES;
    }
    const notAFolder = join(scratch, 'file');
    writeFileSync(notAFolder, '');
    assert.equal(await checkoutEntry(notAFolder), undefined, 'a cache folder that cannot be written: the sources run');
  });
});
