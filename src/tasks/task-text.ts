import { definePhrases } from '../core/phrase.ts';

// What tasks say, in each language. The English text is what a model reads (the handle a turn gets,
// the note that delivers a result) and what the store keeps as a task's status message; a person
// reads the phrase in theirs.

const en = {
  'task.started': (a: { tool: string; id: string }) =>
    `${a.tool} is running as task ${a.id} and keeps running after this reply. Its result will be delivered into this conversation when it ends; do not call the tool again for it. Tell the person it is under way.`,
  'task.handed-over': (a: { tool: string; id: string; limit: string }) =>
    `${a.tool} was still running when the turn reached its limit (${a.limit}), so it now runs as task ${a.id}. Its result will be delivered into this conversation when it ends; do not call the tool again for it.`,
  'task.delivered': (a: { tool: string; id: string; status: string; result: string }) =>
    `Task ${a.id} (${a.tool}) ${a.status}: ${a.result}`,
  'task.status.completed': () => 'finished',
  'task.status.failed': () => 'failed',
  'task.status.cancelled': () => 'was cancelled',
  'task.status.interrupted': () => 'was interrupted',
  'task.interrupted': () =>
    'Riverse stopped while this task was running (a restart or a shutdown); it was not run again. Run the tool again if its result is still needed.',
  'task.cancelled': (a: { tool: string }) => `The task running ${a.tool} was cancelled.`,
  'task.no-result': () => '(no result)',
};

type Texts = typeof en;

const zh: Texts = {
  'task.started': (a) =>
    `${a.tool} 正作为任务 ${a.id} 运行，本次回复之后仍会继续。它结束时结果会送回这段对话；不要为此再次调用该工具。请告诉对方它正在进行。`,
  'task.handed-over': (a) =>
    `本轮到达时限（${a.limit}）时 ${a.tool} 仍在运行，因此它现在作为任务 ${a.id} 继续运行。它结束时结果会送回这段对话；不要为此再次调用该工具。`,
  'task.delivered': (a) => `任务 ${a.id}（${a.tool}）${a.status}：${a.result}`,
  'task.status.completed': () => '已完成',
  'task.status.failed': () => '失败',
  'task.status.cancelled': () => '已取消',
  'task.status.interrupted': () => '被中断',
  'task.interrupted': () =>
    'Riverse 在该任务运行时停止了（重启或关闭）；它没有被重新运行。如果仍需要结果，请再次运行该工具。',
  'task.cancelled': (a) => `运行 ${a.tool} 的任务已取消。`,
  'task.no-result': () => '（无结果）',
};

const ja: Texts = {
  'task.started': (a) =>
    `${a.tool} はタスク ${a.id} として実行中で、この返答の後も動き続けます。終わると結果がこの会話に届きます。そのためにツールをもう一度呼ばないでください。進行中であることを相手に伝えてください。`,
  'task.handed-over': (a) =>
    `ターンが制限時間（${a.limit}）に達したとき ${a.tool} はまだ実行中だったため、タスク ${a.id} として実行を続けています。終わると結果がこの会話に届きます。そのためにツールをもう一度呼ばないでください。`,
  'task.delivered': (a) => `タスク ${a.id}（${a.tool}）が${a.status}：${a.result}`,
  'task.status.completed': () => '完了しました',
  'task.status.failed': () => '失敗しました',
  'task.status.cancelled': () => '取り消されました',
  'task.status.interrupted': () => '中断されました',
  'task.interrupted': () =>
    'このタスクの実行中に Riverse が停止しました（再起動または終了）。再実行はしていません。結果がまだ必要なら、ツールをもう一度実行してください。',
  'task.cancelled': (a) => `${a.tool} を実行していたタスクは取り消されました。`,
  'task.no-result': () => '（結果なし）',
};

export const taskPhrase = definePhrases({ en, zh, ja });
