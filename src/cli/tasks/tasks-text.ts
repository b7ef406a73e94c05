import type { Language } from '../../core/language.ts';
import type { TaskStatus } from '../../tasks/task-types.ts';

/** What `riverse tasks` prints, in each language. */
export interface TasksText {
  /** The list's heading row. */
  header: { id: string; tool: string; status: string; progress: string; session: string; updated: string };
  status: Record<TaskStatus, string>;
  /** Nothing to list: none running (`all`: none at all). */
  none: (all: boolean) => string;
  /** After a list of running tasks only: how to see the ended ones too. */
  moreWithAll: (ended: number) => string;
  /** `tasks show`: one labelled line each. */
  field: {
    tool: string;
    status: string;
    session: string;
    origin: string;
    created: string;
    updated: string;
    progress: string;
    arguments: string;
    reason: string;
    result: string;
    delivered: string;
    /** The heading of the lines its call logged, under the fields. */
    log: string;
  };
  cancelled: (id: string, tool: string) => string;
  /** Cancelled in the store; the process running it stops it. */
  cancelledElsewhere: (id: string, tool: string) => string;
  notFound: (id: string) => string;
  ambiguous: (id: string, count: number) => string;
  alreadyEnded: (id: string, status: string) => string;
}

export const TASKS_TEXT: Record<Language, TasksText> = {
  en: {
    header: { id: 'ID', tool: 'TOOL', status: 'STATUS', progress: 'PROGRESS', session: 'SESSION', updated: 'UPDATED' },
    status: {
      working: 'working',
      input_required: 'waiting for an answer',
      completed: 'completed',
      failed: 'failed',
      cancelled: 'cancelled',
      interrupted: 'interrupted',
    },
    none: (all) => (all ? 'No tasks.' : 'No task is running. riverse tasks --all lists the ended ones too.'),
    moreWithAll: (ended) => `${ended} ended task(s) not shown: riverse tasks --all lists them.`,
    field: {
      tool: 'tool',
      status: 'status',
      session: 'session',
      origin: 'started by',
      created: 'created',
      updated: 'updated',
      progress: 'progress',
      arguments: 'arguments',
      reason: 'reason',
      result: 'result',
      delivered: 'delivered',
      log: 'log',
    },
    cancelled: (id, tool) => `Cancelled task ${id} (${tool}).`,
    cancelledElsewhere: (id, tool) =>
      `Cancelled task ${id} (${tool}); the Riverse process running it stops its call within a second.`,
    notFound: (id) => `there is no task ${JSON.stringify(id)}; riverse tasks --all lists them`,
    ambiguous: (id, count) => `${count} tasks start with ${JSON.stringify(id)}; give more of the id`,
    alreadyEnded: (id, status) => `task ${id} has ended already (${status}); only a running task can be cancelled`,
  },
  zh: {
    header: { id: 'ID', tool: '工具', status: '状态', progress: '进度', session: '会话', updated: '更新于' },
    status: {
      working: '运行中',
      input_required: '等待回答',
      completed: '已完成',
      failed: '失败',
      cancelled: '已取消',
      interrupted: '被中断',
    },
    none: (all) => (all ? '没有任务。' : '没有正在运行的任务。riverse tasks --all 会同时列出已结束的任务。'),
    moreWithAll: (ended) => `未显示 ${ended} 个已结束的任务：riverse tasks --all 会列出它们。`,
    field: {
      tool: '工具',
      status: '状态',
      session: '会话',
      origin: '发起方',
      created: '创建于',
      updated: '更新于',
      progress: '进度',
      arguments: '参数',
      reason: '原因',
      result: '结果',
      delivered: '已送达',
      log: '日志',
    },
    cancelled: (id, tool) => `已取消任务 ${id}（${tool}）。`,
    cancelledElsewhere: (id, tool) => `已取消任务 ${id}（${tool}）；运行它的 Riverse 进程会在一秒内停止该调用。`,
    notFound: (id) => `没有任务 ${JSON.stringify(id)}；riverse tasks --all 会列出所有任务`,
    ambiguous: (id, count) => `有 ${count} 个任务以 ${JSON.stringify(id)} 开头；请给出更长的 id`,
    alreadyEnded: (id, status) => `任务 ${id} 已经结束（${status}）；只能取消正在运行的任务`,
  },
  ja: {
    header: { id: 'ID', tool: 'ツール', status: '状態', progress: '進捗', session: 'セッション', updated: '更新' },
    status: {
      working: '実行中',
      input_required: '回答待ち',
      completed: '完了',
      failed: '失敗',
      cancelled: '取り消し済み',
      interrupted: '中断',
    },
    none: (all) =>
      all ? 'タスクはありません。' : '実行中のタスクはありません。riverse tasks --all で終わったタスクも表示します。',
    moreWithAll: (ended) => `終わったタスク ${ended} 件は表示していません：riverse tasks --all で表示します。`,
    field: {
      tool: 'ツール',
      status: '状態',
      session: 'セッション',
      origin: '開始元',
      created: '作成',
      updated: '更新',
      progress: '進捗',
      arguments: '引数',
      reason: '理由',
      result: '結果',
      delivered: '届けた時刻',
      log: 'ログ',
    },
    cancelled: (id, tool) => `タスク ${id}（${tool}）を取り消しました。`,
    cancelledElsewhere: (id, tool) =>
      `タスク ${id}（${tool}）を取り消しました。実行している Riverse のプロセスが 1 秒以内に呼び出しを止めます。`,
    notFound: (id) => `タスク ${JSON.stringify(id)} はありません。riverse tasks --all で一覧を表示します`,
    ambiguous: (id, count) =>
      `${JSON.stringify(id)} で始まるタスクが ${count} 件あります。id をもっと長く指定してください`,
    alreadyEnded: (id, status) =>
      `タスク ${id} はすでに終わっています（${status}）。取り消せるのは実行中のタスクだけです`,
  },
};
