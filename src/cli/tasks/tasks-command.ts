import { openStore } from '../../store/open-store.ts';
import type { Store } from '../../store/store.ts';
import { ENDED_STATUSES } from '../../store/task-store.ts';
import { cancelStored } from '../../tasks/task-runner.ts';
import type { TaskRecord } from '../../tasks/task-types.ts';
import { taskView } from '../../server/api/task-view.ts';
import { loadCliConfig } from '../cli-config.ts';
import { cliDataDir } from '../data-folder.ts';
import { displayWidth, padToWidth } from '../display-width.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { UsageError } from '../usage-error.ts';
import { TASKS_TEXT, type TasksText } from './tasks-text.ts';

export interface TasksOptions extends GlobalOptions {
  json?: boolean;
  all?: boolean;
}

/** How many ended tasks `--all` lists at most (newest first). */
const LISTED = 200;

/** `riverse tasks [list] [--all] [--json]`: the running tasks (with `--all`, the ended ones too), newest first. */
export async function tasksList(options: TasksOptions): Promise<number> {
  const text = TASKS_TEXT[options.language];
  return withStore(options, async (store) => {
    const all = options.all === true;
    const tasks = await store.tasks.list(all ? { limit: LISTED } : { status: ['working', 'input_required'] });
    if (options.json === true) {
      process.stdout.write(
        `${JSON.stringify({ tasks: tasks.map((task) => taskView(task, options.language)) }, null, 2)}\n`,
      );
      return 0;
    }
    if (tasks.length === 0) {
      process.stdout.write(`${text.none(all)}\n`);
      return 0;
    }
    const names = await sessionNames(store);
    const rows = tasks.map((task) => [
      task.id,
      task.tool,
      text.status[task.status],
      progressText(task),
      task.sessionId === undefined ? '' : (names.get(task.sessionId) ?? ''),
      new Date(task.updatedAt).toISOString().slice(0, 19).replace('T', ' '),
    ]);
    const h = text.header;
    process.stdout.write(table([[h.id, h.tool, h.status, h.progress, h.session, h.updated], ...rows]));
    if (!all) {
      const ended = (await store.tasks.list({ status: ENDED_STATUSES, limit: LISTED })).length;
      if (ended > 0) process.stdout.write(`${text.moreWithAll(ended)}\n`);
    }
    return 0;
  });
}

/** `riverse tasks show ID [--json]`: one task whole (its id, or a start of it). */
export async function tasksShow(id: string, options: TasksOptions): Promise<number> {
  const text = TASKS_TEXT[options.language];
  return withStore(options, async (store) => {
    const task = await findTask(store, id, text);
    if (options.json === true) {
      process.stdout.write(`${JSON.stringify({ task: taskView(task, options.language) }, null, 2)}\n`);
      return 0;
    }
    const f = text.field;
    const session = task.sessionId === undefined ? undefined : (await sessionNames(store)).get(task.sessionId);
    const result =
      task.result === undefined
        ? undefined
        : task.result.success
          ? task.result.data
          : `Error: ${task.result.error ?? ''}`;
    const lines: Array<[string, string | undefined]> = [
      [f.tool, task.tool],
      [f.status, text.status[task.status] + (task.errorCode === undefined ? '' : ` (${task.errorCode})`)],
      [f.session, session],
      [f.origin, task.origin],
      [f.created, new Date(task.createdAt).toISOString()],
      [f.updated, new Date(task.updatedAt).toISOString()],
      [f.progress, task.progress === undefined ? undefined : progressText(task)],
      [f.arguments, JSON.stringify(task.arguments)],
      [f.reason, taskView(task, options.language).statusText ?? task.statusMessage],
      [f.result, result],
      [f.delivered, task.deliveredAt === undefined ? undefined : new Date(task.deliveredAt).toISOString()],
    ];
    const shown = lines.filter((line): line is [string, string] => line[1] !== undefined && line[1] !== '');
    const width = Math.max(...shown.map(([label]) => displayWidth(label)));
    // The lines its call logged, after its turn too: the time, the level, the line.
    const logs = (task.logs ?? []).map(
      (line) => `    ${new Date(line.atMs).toISOString().slice(11, 19)} ${line.level} ${line.message}`,
    );
    process.stdout.write(
      `${task.id}\n${shown.map(([label, value]) => `  ${padToWidth(label, width)}  ${value}`).join('\n')}\n${
        logs.length === 0 ? '' : `  ${f.log}:\n${logs.join('\n')}\n`
      }`,
    );
    return 0;
  });
}

/**
 * `riverse tasks cancel ID`: the task is cancelled in the store; the process running it (the
 * service, a chat) sees that within a second and stops its call.
 */
export async function tasksCancel(id: string, options: TasksOptions): Promise<number> {
  const text = TASKS_TEXT[options.language];
  return withStore(options, async (store) => {
    const task = await findTask(store, id, text);
    if (ENDED_STATUSES.includes(task.status))
      throw new UsageError(text.alreadyEnded(task.id, text.status[task.status]));
    const cancelled = (await cancelStored(store.tasks, task.id)) ?? task;
    if (options.json === true)
      process.stdout.write(`${JSON.stringify({ task: taskView(cancelled, options.language) }, null, 2)}\n`);
    else process.stdout.write(`${text.cancelledElsewhere(task.id, task.tool)}\n`);
    return 0;
  });
}

async function withStore(options: TasksOptions, body: (store: Store) => Promise<number>): Promise<number> {
  const loaded = await loadCliConfig(options.config);
  const store = await openStore(cliDataDir(loaded), loaded.config, { language: options.language });
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** The task of this id, or of the one id that starts so (4 characters or more). */
async function findTask(store: Store, id: string, text: TasksText): Promise<TaskRecord> {
  const exact = await store.tasks.get(id);
  if (exact !== undefined) return exact;
  const starting = id.length >= 4 ? (await store.tasks.list()).filter((task) => task.id.startsWith(id)) : [];
  if (starting.length === 1) return starting[0]!;
  throw new UsageError(starting.length > 1 ? text.ambiguous(id, starting.length) : text.notFound(id));
}

async function sessionNames(store: Store): Promise<Map<string, string>> {
  return new Map((await store.listSessions()).map((session) => [session.id, session.name]));
}

function progressText(task: TaskRecord): string {
  const progress = task.progress;
  if (progress === undefined) return '';
  const amount =
    progress.total === undefined
      ? String(progress.progress)
      : `${Math.round((100 * progress.progress) / progress.total)}% (${progress.progress}/${progress.total})`;
  return progress.message === undefined ? amount : `${amount} ${progress.message}`;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => displayWidth(row[column] ?? ''))));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : padToWidth(cell, widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}
