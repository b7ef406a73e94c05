// `riverse tasks` as a person runs it, beside a process that runs a task (this test's, standing in
// for `riverse serve`): the list (text and JSON), one task shown, a cancel that reaches the running
// call through the store, and the mistakes (an unknown id, a task that has ended).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir } from '../../assistant/turn-test-support.ts';
import { SqliteStore } from '../../store/sqlite-store.ts';
import { LocalTaskRunner, type TaskCallHooks } from '../../tasks/task-runner.ts';
import type { CheckedToolResult } from '../../tools/tool-result.ts';
import { runRiverse } from '../assistant-cli-test-support.ts';
import { parseJson } from '../cli-test-support.ts';

describe('riverse tasks', () => {
  it('lists, shows and cancels a running task, and refuses an unknown id and a second cancel', {
    timeout: 60_000,
  }, async (t) => {
    const project = await tempDir(t, 'riverse-tasks-project-');
    const dataDir = await tempDir(t, 'riverse-tasks-data-');
    const env = { RIVERSE_DATA_DIR: dataDir };
    const store = SqliteStore.open(dataDir);
    const session = await store.session('reports');
    let hooks: TaskCallHooks | undefined;
    const runner = new LocalTaskRunner({
      records: store.tasks,
      watchMs: 20,
      run: (_request, given) =>
        new Promise<CheckedToolResult>((resolve) => {
          hooks = given;
          given.signal.addEventListener('abort', () =>
            resolve({ success: false, data: '', error: 'stopped', code: 'aborted' }),
          );
        }),
    });
    t.after(async () => {
      await runner.close();
      await store.close();
    });
    const task = await runner.start({
      tool: 'quarterly_report',
      arguments: { quarter: 3 },
      callId: 'call_1',
      origin: 'turn',
      sessionId: session.id,
    });
    await new Promise((resolve) => setImmediate(resolve));
    hooks!.progress({ progress: 1, total: 4, message: 'gathering' });
    await runner.list(); // writes the progress through

    const listed = await runRiverse(['tasks', '--json'], { cwd: project, env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      parseJson(listed).tasks.map((one: { id: string; status: string }) => [one.id, one.status]),
      [[task.id, 'working']],
    );
    const text = await runRiverse(['tasks', 'list'], { cwd: project, env });
    assert.equal(text.code, 0, text.stderr);
    const [header, row] = text.stdout.split('\n');
    assert.match(header!, /^ID\s+TOOL\s+STATUS\s+PROGRESS\s+SESSION\s+UPDATED$/);
    assert.match(
      row!,
      new RegExp(`^${task.id}\\s+quarterly_report\\s+working\\s+25% \\(1/4\\) gathering\\s+reports\\s+\\d{4}-`),
    );

    const shown = await runRiverse(['tasks', 'show', task.id.slice(0, 8), '--lang', 'ja'], { cwd: project, env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^${task.id}\\n`));
    assert.match(shown.stdout, /状態\s+実行中/);
    assert.match(shown.stdout, /引数\s+\{"quarter":3\}/);

    const cancelled = await runRiverse(['tasks', 'cancel', task.id], { cwd: project, env });
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.match(
      cancelled.stdout,
      /Cancelled task .* \(quarterly_report\); the Riverse process running it stops its call/,
    );
    // The process running it saw the cancel in the store, and its call's signal fired.
    const ended = await runner.waitForEnd(task.id);
    assert.equal(ended.status, 'cancelled');
    assert.equal(hooks!.signal.aborted, true);

    const again = await runRiverse(['tasks', 'cancel', task.id], { cwd: project, env });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^error: task .* has ended already \(cancelled\); only a running task can be cancelled/);
    const unknown = await runRiverse(['tasks', 'show', 'nope'], { cwd: project, env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^error: there is no task "nope"; riverse tasks --all lists them/);

    const none = await runRiverse(['tasks'], { cwd: project, env });
    assert.equal(none.stdout, 'No task is running. riverse tasks --all lists the ended ones too.\n');
    const all = await runRiverse(['tasks', '--all', '--json'], { cwd: project, env });
    assert.equal(parseJson(all).tasks[0].status, 'cancelled');
  });
});
