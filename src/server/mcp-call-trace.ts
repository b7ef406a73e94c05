import { randomUUID } from 'node:crypto';
import type { ServedCall, ServedTools } from '../mcp/tool-server.ts';
import { traceHex, type TurnTrace } from '../store/turn-trace.ts';
import type { TurnExport } from '../telemetry/turn-export.ts';

/**
 * The served tools with each MCP `tools/call` exported as an `execute_tool` span: under the
 * client's span when its `_meta` carried a `traceparent`, so that the client's trace shows what ran here.
 */
export function tracedTools(tools: ServedTools, telemetry: TurnExport): ServedTools {
  return {
    get current() {
      return tools.current;
    },
    onChange: (listener) => tools.onChange(listener),
    onCall: (call) =>
      telemetry.export(mcpCallTrace(call), call.traceContext === undefined ? {} : { parent: call.traceContext }),
  };
}

/** One MCP call as a trace of one span (not stored: the call is the client's, in its own trace). */
function mcpCallTrace(call: ServedCall): TurnTrace {
  const startMs = Date.parse(call.startedAt);
  const { result } = call;
  const code = result.success ? undefined : (result.code ?? '_OTHER');
  return {
    id: randomUUID(),
    traceId: call.traceContext?.traceId ?? traceHex(16),
    sessionId: 'mcp',
    startedAt: call.startedAt,
    durationMs: call.durationMs,
    outcome: result.success ? 'success' : 'failure',
    stopReason: result.success ? 'answer' : 'error',
    tools: [call.tool],
    spans: [
      {
        spanId: traceHex(8),
        kind: 'tool-call',
        name: `execute_tool ${call.tool}`,
        startMs,
        endMs: startMs + call.durationMs,
        status: result.success ? 'ok' : 'error',
        ...(code === undefined ? {} : { errorCode: code }),
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.tool,
          'gen_ai.tool.type': 'function',
          'riverse.via': 'mcp',
          'riverse.outcome': result.success ? 'success' : 'failure',
          ...(code === undefined ? {} : { 'error.type': code }),
        },
      },
    ],
  };
}
