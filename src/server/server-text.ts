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
}

export const SERVER_TEXT: Record<Language, ServerText> = {
  en: {
    resumeFailed: (reason) =>
      `error: the calls approved before the service restarted could not be run: ${reason}. They stay approved in the data folder; start the service again to retry.`,
    tasksNotEnded: (reason) =>
      `error: the tasks running when the service last stopped could not be marked interrupted: ${reason}. They stay listed as running until the service starts with a store it can write.`,
    requestFailed: (request, detail) => `error: the service failed while answering ${request}: ${detail}`,
  },
  zh: {
    resumeFailed: (reason) =>
      `错误：服务重启前已批准的调用无法运行：${reason}。它们仍以“已批准”保存在数据目录中；再次启动服务即可重试。`,
    tasksNotEnded: (reason) =>
      `错误：无法把服务上次停止时仍在运行的任务标记为已中断：${reason}。在服务以可写入的存储启动之前，它们仍显示为运行中。`,
    requestFailed: (request, detail) => `错误：服务在响应 ${request} 时出错：${detail}`,
  },
  ja: {
    resumeFailed: (reason) =>
      `エラー：サービスの再起動前に許可された呼び出しを実行できませんでした：${reason}。許可済みのままデータフォルダーに残っています。サービスをもう一度起動すると再試行します。`,
    tasksNotEnded: (reason) =>
      `エラー：サービスが前回停止したときに実行中だったタスクを中断済みにできませんでした：${reason}。書き込めるストアでサービスが起動するまで、実行中として表示されます。`,
    requestFailed: (request, detail) => `エラー：サービスが ${request} への応答中に失敗しました：${detail}`,
  },
};
