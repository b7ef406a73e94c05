import type { ContentPart } from '../tools/content-part.ts';
import type { TraceContext } from '../core/trace-context.ts';
import type { ToolCallTrace } from './tool-call-trace.ts';
import { traceParts } from './trace-parts.ts';
import { traceHex, type HandRunVia, type TurnTrace } from './turn-trace.ts';

/** A tool run by hand as a trace: a turn of one tool call, marked `byHand`; in the caller's trace when a traceparent came with it. */
export function handRunTrace(
  call: ToolCallTrace,
  via: HandRunVia,
  content?: readonly ContentPart[],
  parent?: TraceContext,
): TurnTrace {
  const startMs = Date.parse(call.startedAt);
  const endMs = startMs + call.durationMs;
  const root = traceHex(8);
  const status = call.success ? 'ok' : 'error';
  const failed = call.code === undefined ? {} : { errorCode: call.code };
  return {
    id: call.turnId,
    traceId: parent?.traceId ?? traceHex(16),
    sessionId: call.sessionId,
    byHand: via,
    startedAt: call.startedAt,
    durationMs: call.durationMs,
    outcome: call.success ? 'success' : 'failure',
    stopReason: call.success ? 'answer' : 'error',
    tools: [call.tool],
    spans: [
      {
        spanId: root,
        kind: 'turn',
        name: 'invoke_agent',
        startMs,
        endMs,
        status,
        ...failed,
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'riverse.hand_run': via },
      },
      {
        spanId: traceHex(8),
        parentId: root,
        kind: 'tool-call',
        name: `execute_tool ${call.tool}`,
        startMs,
        endMs,
        status,
        ...failed,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.tool,
          'gen_ai.tool.call.id': call.callId,
          'gen_ai.tool.type': 'function',
          'riverse.outcome': call.success ? 'success' : 'failure',
          'riverse.result.chars': call.data.length + (call.error?.length ?? 0),
          ...(call.code === undefined ? {} : { 'error.type': call.code }),
          ...(content === undefined ? {} : { 'riverse.result.parts': content.length }),
        },
        ...(content === undefined ? {} : { parts: traceParts(content) }),
      },
    ],
  };
}
