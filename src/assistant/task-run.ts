import type { RunTaskCall } from '../tasks/task-runner.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { approvalGate, questionChannel, type TurnApprovals } from './approval-gate.ts';
import type { Approvals } from './approvals.ts';
import type { TurnEvent } from './turn-events.ts';

/** A day: what a task's call may run for when its tool's manifest sets no `timeoutMs`. */
export const TASK_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * How a task started by the runner (an MCP client's, not a turn's) runs its call: the tool as the
 * registry holds it now, under the manifest's `timeoutMs` or a day, through the approval gate and
 * the question channel of `approvals` for a task of a session (refused, for one of none, when it
 * needs approval), unless the starter brings its own. `emit` is told the call's approval and
 * question events, with the task's id.
 */
export function taskCall(
  registry: () => ToolRegistry,
  approvals?: Approvals,
  emit?: (taskId: string, event: TurnEvent) => void,
): RunTaskCall {
  return (request, hooks) => {
    const tools = registry();
    const entry = tools.get(request.tool);
    const desk: TurnApprovals | undefined =
      approvals === undefined || request.sessionId === undefined ? undefined : { desk: approvals, mode: 'ask' };
    const call = {
      callId: request.callId,
      tool: request.tool,
      sessionId: request.sessionId ?? 'default',
      turnId: `task:${hooks.taskId}`,
      signal: hooks.signal,
      emit: (event: TurnEvent) => emit?.(hooks.taskId, event),
    };
    const ask = request.ask ?? questionChannel(desk, call);
    return tools.execute(request.tool, request.arguments, {
      signal: hooks.signal,
      ...(request.sessionId === undefined ? {} : { sessionId: request.sessionId }),
      ...(request.language === undefined ? {} : { language: request.language }),
      ...(entry?.manifest.timeoutMs === undefined ? { timeoutMs: TASK_TIMEOUT_MS } : {}),
      approve: request.approve ?? approvalGate(desk, call),
      ...(ask === undefined
        ? {}
        : {
            ask: async (question, signal) => {
              hooks.asking(true);
              try {
                return await ask(question, signal);
              } finally {
                hooks.asking(false);
              }
            },
          }),
      onProgress: hooks.progress,
      onLog: hooks.log,
      onRemoteTask: hooks.remote,
    });
  };
}
