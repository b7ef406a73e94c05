// @ts-check
// What the tasks page (tasks-page.js) and a task's result in the chat say, in English, Chinese and
// Japanese; joined into messages.js. Same rules: every language has every key, with the same placeholders.

export const TASK_MESSAGES = {
  en: {
    navTasks: 'Tasks',
    tasksTitle: 'Tasks',
    tasksIntro:
      'Tool calls that run apart from their chat (long-running tools, or calls that outlived the turn). Their results come back into their chat when they end.',
    tasksRunning: '{count} running',
    noTasks: 'No tasks yet. A call of a long-running tool appears here while it runs, and stays once it ends.',
    taskWorking: 'Working',
    taskInputRequired: 'Waiting for your answer',
    taskCompleted: 'Completed',
    taskFailed: 'Failed',
    taskCancelled: 'Cancelled',
    taskInterrupted: 'Interrupted',
    taskCancel: 'Cancel',
    taskCancelFailed: 'Could not cancel the task: {reason}',
    taskSession: 'Chat {session}',
    taskStarted: 'Started {when}',
    taskProgress: 'Progress of {tool}',
    taskResultArrived: 'Result of {tool} arrived (task {id})',
    callBecameTask: 'Running as a task',
    taskInterruptedReason:
      'Riverse stopped while this task was running (a restart or a shutdown); it was not run again. Ask again if its result is still needed.',
  },
  zh: {
    navTasks: '任务',
    tasksTitle: '任务',
    tasksIntro:
      '脱离其对话运行的工具调用（长时间运行的工具，或超出回合时限的调用）。它们结束时，结果会回到原来的对话。',
    tasksRunning: '{count} 个正在运行',
    noTasks: '还没有任务。长时间运行的工具被调用时，会在运行期间出现在这里，结束后也会保留。',
    taskWorking: '运行中',
    taskInputRequired: '等待你的回答',
    taskCompleted: '已完成',
    taskFailed: '失败',
    taskCancelled: '已取消',
    taskInterrupted: '被中断',
    taskCancel: '取消',
    taskCancelFailed: '无法取消该任务：{reason}',
    taskSession: '对话 {session}',
    taskStarted: '开始于 {when}',
    taskProgress: '{tool} 的进度',
    taskResultArrived: '{tool} 的结果已送达（任务 {id}）',
    callBecameTask: '作为任务运行中',
    taskInterruptedReason: '该任务运行时 Riverse 停止了（重启或关闭）；它没有被重新运行。如果仍需要结果，请再问一次。',
  },
  ja: {
    navTasks: 'タスク',
    tasksTitle: 'タスク',
    tasksIntro:
      'チャットから離れて動くツール呼び出し（長時間動くツールや、ターンの制限時間を超えた呼び出し）。終わると結果が元のチャットに届きます。',
    tasksRunning: '{count} 件実行中',
    noTasks: 'タスクはまだありません。長時間動くツールが呼ばれると、実行中はここに表示され、終わった後も残ります。',
    taskWorking: '実行中',
    taskInputRequired: 'あなたの回答待ち',
    taskCompleted: '完了',
    taskFailed: '失敗',
    taskCancelled: '取り消し済み',
    taskInterrupted: '中断',
    taskCancel: '取り消す',
    taskCancelFailed: 'タスクを取り消せませんでした：{reason}',
    taskSession: 'チャット {session}',
    taskStarted: '開始 {when}',
    taskProgress: '{tool} の進捗',
    taskResultArrived: '{tool} の結果が届きました（タスク {id}）',
    callBecameTask: 'タスクとして実行中',
    taskInterruptedReason:
      'このタスクの実行中に Riverse が停止しました（再起動または終了）。再実行はしていません。結果がまだ必要なら、もう一度頼んでください。',
  },
};
