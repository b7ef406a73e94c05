import type { Language } from '../../core/language.ts';

/** What `riverse serve` prints, in each language. */
export const SERVE_TEXT: Record<
  Language,
  {
    serving: (version: string, url: string) => string;
    dashboard: (url: string) => string;
    openai: (url: string) => string;
    tools: (available: number, total: number) => string;
    model: (id: string) => string;
    /** OpenTelemetry is on: where its spans go. */
    telemetry: (destination: string) => string;
    noModel: string;
    /** The model named could not be made: why. */
    modelProblem: (reason: string) => string;
    stop: string;
    stopped: string;
    /** Binding a non-loopback address without a token. */
    needsToken: (host: string) => string;
    portInUse: (port: number) => string;
  }
> = {
  en: {
    serving: (version, url) => `Riverse ${version} is serving at ${url}`,
    dashboard: (url) => `  Dashboard:   ${url}`,
    openai: (url) => `  OpenAI API:  ${url}  (model "riverse")`,
    tools: (available, total) => `  Tools:       ${available} available of ${total}`,
    model: (id) => `  Model:       ${id}`,
    telemetry: (destination) => `  Telemetry:   OpenTelemetry spans to ${destination}`,
    modelProblem: (reason) => `  Model:       none — ${reason}`,
    noModel:
      "  Model:       none yet — the tools work without one; the dashboard's chat page offers the default local model, or set RIVERSE_MODEL (e.g. openai:gpt-4.1-mini with OPENAI_API_KEY) and start again.",
    stop: 'Ctrl+C stops it.',
    stopped: 'Stopped.',
    needsToken: (host) =>
      `refusing to listen on ${host} without an access token: anyone who can reach that address could use the assistant and run its tools. Give one with --token, RIVERSE_TOKEN or server.token in riverse.yaml, or listen on 127.0.0.1.`,
    portInUse: (port) => `port ${port} is in use; stop what holds it, or pick another with --port.`,
  },
  zh: {
    serving: (version, url) => `Riverse ${version} 正在 ${url} 提供服务`,
    dashboard: (url) => `  控制台：      ${url}`,
    openai: (url) => `  OpenAI API： ${url}（模型 "riverse"）`,
    tools: (available, total) => `  工具：        ${total} 个中 ${available} 个可用`,
    model: (id) => `  模型：        ${id}`,
    telemetry: (destination) => `  遥测：        OpenTelemetry span 发往 ${destination}`,
    modelProblem: (reason) => `  模型：        无——${reason}`,
    noModel:
      '  模型：        尚未连接——没有模型也能使用工具；控制台的对话页面可以下载默认的本地模型，或设置 RIVERSE_MODEL（例如 openai:gpt-4.1-mini 并设置 OPENAI_API_KEY）后重新启动。',
    stop: '按 Ctrl+C 停止。',
    stopped: '已停止。',
    needsToken: (host) =>
      `没有访问令牌时拒绝在 ${host} 上监听：任何能访问该地址的人都能使用助理并运行它的工具。请用 --token、RIVERSE_TOKEN 或 riverse.yaml 中的 server.token 设置令牌，或在 127.0.0.1 上监听。`,
    portInUse: (port) => `端口 ${port} 已被占用；请停止占用它的程序，或用 --port 换一个端口。`,
  },
  ja: {
    serving: (version, url) => `Riverse ${version} を ${url} で提供しています`,
    dashboard: (url) => `  ダッシュボード： ${url}`,
    openai: (url) => `  OpenAI API：     ${url}（モデル "riverse"）`,
    tools: (available, total) => `  ツール：         ${total} 個中 ${available} 個が利用可能`,
    model: (id) => `  モデル：         ${id}`,
    telemetry: (destination) => `  テレメトリ：     OpenTelemetry のスパンを ${destination} へ送信`,
    modelProblem: (reason) => `  モデル：         なし — ${reason}`,
    noModel:
      '  モデル：         まだありません。ツールはモデルなしでも使えます。ダッシュボードのチャット画面から既定のローカルモデルをダウンロードするか、RIVERSE_MODEL を設定して（例：openai:gpt-4.1-mini と OPENAI_API_KEY）起動し直してください。',
    stop: 'Ctrl+C で停止します。',
    stopped: '停止しました。',
    needsToken: (host) =>
      `アクセストークンなしで ${host} では待ち受けません。そのアドレスに届く人なら誰でもアシスタントを使い、ツールを実行できてしまいます。--token、RIVERSE_TOKEN、または riverse.yaml の server.token で設定するか、127.0.0.1 で待ち受けてください。`,
    portInUse: (port) =>
      `ポート ${port} は使用中です。使っているものを止めるか、--port で別のポートを指定してください。`,
  },
};
