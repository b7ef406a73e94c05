import type { ServerState } from '../../mcp/server-connection.ts';
import type { Language } from '../../core/language.ts';

/** What `riverse mcp` and `riverse mcp list` print. */
export interface McpText {
  noServers: string;
  columns: [server: string, transport: string, state: string, tools: string, detail: string];
  states: Record<ServerState, string>;
  failures: (count: number) => string;
  /** On stderr when `riverse mcp` starts: stdout is the protocol's. */
  serving: (tools: number) => string;
  /** A problem on the connection (a line refused, a write that failed), with the SDK's or the transport's words. */
  problem: (message: string) => string;
}

export const MCP_TEXT: Record<Language, McpText> = {
  en: {
    noServers:
      'No MCP servers in riverse.yaml. Add one under mcp.servers (the shape of Claude Desktop\'s "mcpServers"): see docs/custom-tools.md.',
    columns: ['SERVER', 'TRANSPORT', 'STATE', 'TOOLS', 'DETAIL'],
    states: { starting: 'starting', connected: 'connected', retrying: 'not connected', closed: 'closed' },
    failures: (count) => `${count} failed attempt${count === 1 ? '' : 's'} in a row; tried again with back-off`,
    serving: (tools) => `riverse: serving ${tools} tool${tools === 1 ? '' : 's'} over MCP on stdio (Ctrl+C to stop)`,
    problem: (message) => `riverse mcp: connection problem: ${message}`,
  },
  zh: {
    noServers:
      'riverse.yaml 中没有 MCP 服务器。请在 mcp.servers 下添加（格式与 Claude Desktop 的 "mcpServers" 相同），见 docs/custom-tools.zh.md。',
    columns: ['服务器', '传输', '状态', '工具', '说明'],
    states: { starting: '启动中', connected: '已连接', retrying: '未连接', closed: '已关闭' },
    failures: (count) => `连续失败 ${count} 次；将逐步延长间隔重试`,
    serving: (tools) => `riverse：正在通过 stdio 以 MCP 提供 ${tools} 个工具（Ctrl+C 停止）`,
    problem: (message) => `riverse mcp：连接问题：${message}`,
  },
  ja: {
    noServers:
      'riverse.yaml に MCP サーバーがありません。mcp.servers に追加してください（Claude Desktop の "mcpServers" と同じ形）。docs/custom-tools.ja.md を参照。',
    columns: ['サーバー', 'トランスポート', '状態', 'ツール', '詳細'],
    states: { starting: '起動中', connected: '接続済み', retrying: '未接続', closed: '終了' },
    failures: (count) => `${count} 回続けて失敗。間隔を延ばしながら再試行します`,
    serving: (tools) => `riverse: stdio の MCP で ${tools} 個のツールを提供しています（Ctrl+C で停止）`,
    problem: (message) => `riverse mcp：接続の問題：${message}`,
  },
};
