import type { Language } from '../core/language.ts';

// What the service prints to the person who started it (its log), in their language; an error
// starts with the same `error:` as every error of the command.

interface ServerText {
  /** A call approved before the service stopped, whose run never began, could not be run now. */
  resumeFailed: (reason: string) => string;
  /** The tasks a stopped service left running could not be marked interrupted (the store failed at start). */
  tasksNotEnded: (reason: string) => string;
  /** A bug answered a request with 500: the request, and the stack. */
  requestFailed: (request: string, detail: string) => string;
  /** Another replica died mid-turn; this one marked its turn interrupted (the reason is in English, as the traces keep it). */
  turnInterrupted: (sessionId: string, reason: string) => string;
  /** The replica could not write its heartbeat or sweep (the store failed); it tries again. */
  heartbeatFailed: (reason: string) => string;
  /** A tool switched on another replica could not be read or applied here (the store or the reload failed). */
  switchesNotFollowed: (reason: string) => string;
}

export const SERVER_TEXT: Record<Language, ServerText> = {
  en: {
    resumeFailed: (reason) =>
      `error: the calls approved before the service restarted could not be run: ${reason}. They stay approved in the data folder; start the service again to retry.`,
    tasksNotEnded: (reason) =>
      `error: the tasks running when the service last stopped could not be marked interrupted: ${reason}. They stay listed as running until the service starts with a store it can write.`,
    requestFailed: (request, detail) => `error: the service failed while answering ${request}: ${detail}`,
    turnInterrupted: (sessionId, reason) =>
      `A turn of session ${sessionId} was marked interrupted: ${reason} The session goes on from any replica.`,
    heartbeatFailed: (reason) =>
      `error: this replica could not record its heartbeat in the store: ${reason}. It tries again in a few seconds; if the store stays unreachable, other replicas will mark its turns interrupted.`,
    switchesNotFollowed: (reason) =>
      `error: a tool switched on another replica could not be switched on this one: ${reason}. It is switched here at the next switch, or when this replica starts again.`,
  },
  zh: {
    resumeFailed: (reason) =>
      `错误：服务重启前已批准的调用无法运行：${reason}。它们仍以“已批准”保存在数据目录中；再次启动服务即可重试。`,
    tasksNotEnded: (reason) =>
      `错误：无法把服务上次停止时仍在运行的任务标记为已中断：${reason}。在服务以可写入的存储启动之前，它们仍显示为运行中。`,
    requestFailed: (request, detail) => `错误：服务在响应 ${request} 时出错：${detail}`,
    turnInterrupted: (sessionId, reason) =>
      `会话 ${sessionId} 的一轮对话已标记为中断：${reason} 该会话可在任一副本上继续。`,
    heartbeatFailed: (reason) =>
      `错误：此副本无法在存储中记录心跳：${reason}。几秒后会重试；若存储一直无法访问，其他副本会把它的对话轮次标记为中断。`,
    switchesNotFollowed: (reason) =>
      `错误：另一个副本上切换的工具无法在此副本上同步切换：${reason}。下次切换时或此副本重新启动时会同步。`,
  },
  ja: {
    resumeFailed: (reason) =>
      `エラー：サービスの再起動前に許可された呼び出しを実行できませんでした：${reason}。許可済みのままデータフォルダーに残っています。サービスをもう一度起動すると再試行します。`,
    tasksNotEnded: (reason) =>
      `エラー：サービスが前回停止したときに実行中だったタスクを中断済みにできませんでした：${reason}。書き込めるストアでサービスが起動するまで、実行中として表示されます。`,
    requestFailed: (request, detail) => `エラー：サービスが ${request} への応答中に失敗しました：${detail}`,
    turnInterrupted: (sessionId, reason) =>
      `セッション ${sessionId} のターンを中断済みにしました：${reason} このセッションはどのレプリカからでも続けられます。`,
    heartbeatFailed: (reason) =>
      `エラー：このレプリカはストアにハートビートを記録できませんでした：${reason}。数秒後に再試行します。ストアに届かないままなら、他のレプリカがこのレプリカのターンを中断済みにします。`,
    switchesNotFollowed: (reason) =>
      `エラー：別のレプリカで切り替えたツールを、このレプリカに反映できませんでした：${reason}。次の切り替え時か、このレプリカの再起動時に反映されます。`,
  },
};
