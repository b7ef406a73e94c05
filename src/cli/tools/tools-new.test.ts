import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { createProject, ECHO_TOOL, runCommand, show, type TempProject } from '../cli-test-support.ts';

describe('riverse tools new', { concurrency: 4 }, () => {
  let fresh: TempProject;
  let reserved: TempProject;
  let configured: TempProject;
  before(async () => {
    [fresh, reserved, configured] = await Promise.all([
      // No agent/tools yet: `new` creates the folder.
      createProject(),
      createProject(),
      createProject({ 'riverse.yaml': 'tools:\n  dirs: [plugins, more]\n', 'plugins/echo.ts': ECHO_TOOL }),
    ]);
    await fresh.linkRiverse();
  });
  after(() => Promise.all([fresh, reserved, configured].map((project) => project?.remove())));

  test('writes a tool and its test that check cleanly, run, and pass as the printed command runs them', async (t) => {
    const created = await fresh.run(['tools', 'new', 'my_tool']);
    assert.equal(created.code, 0, show(created));
    assert.match(created.stdout, /^Created agent\/tools\/my_tool\.ts and agent\/tools\/my_tool\.test\.ts\.$/m);
    await access(fresh.path('agent/tools/my_tool.ts'));
    await access(fresh.path('agent/tools/my_tool.test.ts'));
    const [command, ...args] =
      /^ {2}(npx node --test agent\/tools\/my_tool\.test\.ts) +# run its test$/m
        .exec(created.stdout)?.[1]
        ?.split(' ') ?? [];
    assert.ok(command !== undefined, show(created));

    const [checked, ran, tested, again] = await Promise.all([
      fresh.run(['tools', 'check']),
      fresh.run(['tools', 'run', 'my_tool', 'text=hi']),
      // The project links this checkout (node_modules/riverse), whose .npmrc gives npx the
      // riverse-source condition; that file is not read from the project's own folder, so it is set here.
      runCommand(command, args, { cwd: fresh.dir, env: { NODE_OPTIONS: '--conditions=riverse-source' } }),
      fresh.run(['tools', 'new', 'my_tool']),
    ]);
    await t.test('tools check passes without warnings', () => {
      assert.equal(checked.code, 0, show(checked));
      assert.equal(checked.stdout, 'Checked agent/tools: 1 tool available, 0 unavailable; 0 errors, 0 warnings.\n');
    });
    await t.test('tools run my_tool text=hi prints hi', () => {
      assert.equal(ran.code, 0, show(ran));
      assert.equal(ran.stdout, 'hi\n');
    });
    await t.test('the generated test passes', () => {
      assert.equal(tested.code, 0, show(tested));
      assert.match(tested.stdout, /pass 2/);
      assert.match(tested.stdout, /fail 0/);
    });
    await t.test('creating it again: exit 2, nothing overwritten', async () => {
      assert.equal(again.code, 2, show(again));
      assert.match(again.stderr, /agent\/tools\/my_tool\.ts already exists/);
      assert.match(await fresh.read('agent/tools/my_tool.ts'), /name: 'my_tool'/);
    });
  });

  test('an invalid name: exit 2, nothing written', async () => {
    const result = await reserved.run(['tools', 'new', 'my tool!']);
    assert.equal(result.code, 2, show(result));
    assert.match(result.stderr, /"my tool!" is not a valid tool name/);
    await assert.rejects(access(reserved.path('agent/tools/my tool!.ts')));
    const digit = await reserved.run(['tools', 'new', '3d_print']);
    assert.equal(digit.code, 2, show(digit));
    assert.match(digit.stderr, /"3d_print" is not a valid tool name: .*starting with a letter or "_"/);
  });

  test('a name whose class would be BaseTool still makes a working tool', async () => {
    const created = await reserved.run(['tools', 'new', 'base_tool']);
    assert.equal(created.code, 0, show(created));
    const [checked, ran] = await Promise.all([
      reserved.run(['tools', 'check', '--strict']),
      reserved.run(['tools', 'run', 'base_tool', 'text=ok']),
    ]);
    assert.equal(checked.code, 0, show(checked));
    assert.match(checked.stdout, /1 tool available, 0 unavailable; 0 errors, 0 warnings\./);
    assert.equal(ran.code, 0, show(ran));
    assert.equal(ran.stdout, 'ok\n');
  });

  test('writes into the first folder of tools.dirs, or into --dir', async () => {
    const [fromConfig, fromOption] = await Promise.all([
      configured.run(['tools', 'new', 'alerts']),
      configured.run(['tools', 'new', 'notes', '--dir', 'more']),
    ]);
    assert.equal(fromConfig.code, 0, show(fromConfig));
    assert.match(fromConfig.stdout, /^Created plugins\/alerts\.ts and plugins\/alerts\.test\.ts\./m);
    assert.equal(fromOption.code, 0, show(fromOption));
    assert.match(fromOption.stdout, /^Created more\/notes\.ts and more\/notes\.test\.ts\./m);
    const listed = await configured.run(['tools', 'list']);
    assert.equal(listed.code, 0, show(listed));
    assert.match(listed.stdout, /^alerts\s+plugins\/alerts\.ts\s+available$/m);
    assert.match(listed.stdout, /^echo\s+plugins\/echo\.ts\s+available$/m);
    assert.match(listed.stdout, /^notes\s+more\/notes\.ts\s+available$/m);
  });
});
