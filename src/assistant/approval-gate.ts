import { approvalSetting, needsApproval } from '../tools/approval-policy.ts';
import type { ApprovalGateAnswer, ExecuteOptions } from '../tool-runtime/execute-tool.ts';
import type { RegisteredTool } from '../tool-runtime/registered-tool.ts';
import { deniedResult, type Approvals } from './approvals.ts';
import type { TurnEvent } from './turn-events.ts';

/**
 * How a turn's calls that need approval are treated. `ask`: the person is asked through `desk`
 * (the turn's channel shows `approval-request` events and answers with `desk.answer`). `deny`: no
 * one can be asked (a /v1 request), so they are refused with `approval-unavailable`. `allow`: they
 * run (the caller vouches for them: `server.v1_approvals: allow`).
 */
export interface TurnApprovals {
  desk: Approvals;
  mode: 'ask' | 'deny' | 'allow';
  /**
   * Filled by the gate: the calls whose approval was still pending when the turn stopped. Their
   * results are not stored as the conversation's (the approval can still be answered, and the
   * call's trace then says what happened).
   */
  unsettled?: Set<string>;
}

export interface GatedCall {
  callId: string;
  sessionId: string;
  turnId: string;
  signal?: AbortSignal;
  emit: (event: TurnEvent) => void;
}

/**
 * The check every call of a turn passes between its arguments' check and its run, whatever route
 * brought it (a routed tool, an MCP tool, a round of many): the tool's approval setting for these
 * exact parameters, then "always" for this session, then the person. Without `approvals`, no one
 * can be asked: a call that needs approval is refused.
 */
export function approvalGate(
  approvals: TurnApprovals | undefined,
  call: GatedCall,
): (tool: RegisteredTool, params: Record<string, unknown>) => Promise<ApprovalGateAnswer> {
  return async (tool, params) => {
    if (!needsApproval(approvalSetting(tool.manifest, tool.config), params)) return { run: true };
    if (approvals?.mode === 'allow') return { run: true };
    if (approvals === undefined || approvals.mode === 'deny') {
      return {
        run: false,
        result: {
          success: false,
          data: '',
          code: 'approval-unavailable',
          error: `This call to ${tool.name} needs a person's approval, and no one can be asked here (a /v1 request, or riverse ask); it did not run. Tell the user it needs their approval: in riverse chat or the dashboard, or with tools.${tool.name}.approval in riverse.yaml.`,
        },
      };
    }
    const { desk } = approvals;
    if (await desk.alwaysAllowed(call.sessionId, tool.name)) return { run: true };
    const outcome = await desk.request(
      { sessionId: call.sessionId, turnId: call.turnId, callId: call.callId, tool: tool.name, params },
      call.signal,
      (pending) =>
        call.emit({
          type: 'approval-request',
          approvalId: pending.id,
          callId: pending.callId,
          tool: pending.tool,
          params: pending.params,
          expiresAt: pending.expiresAt,
        }),
    );
    const { approvalId } = outcome;
    if (!outcome.approved && outcome.code === 'aborted') approvals.unsettled?.add(call.callId);
    if (!outcome.approved) {
      call.emit({
        type: 'approval-answered',
        approvalId,
        callId: call.callId,
        tool: tool.name,
        decision: outcome.code,
        ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
      });
      return { run: false, result: deniedResult(outcome, tool.name) };
    }
    call.emit({
      type: 'approval-answered',
      approvalId,
      callId: call.callId,
      tool: tool.name,
      decision: outcome.always ? 'always' : 'approved',
    });
    // The answer is on disk already; marking the run begun means a restart will not run it twice.
    if (!(await desk.running(approvalId))) {
      return {
        run: false,
        result: {
          success: false,
          data: '',
          code: 'aborted',
          error: `This call to ${tool.name} was approved and run by another Riverse process sharing the store; it did not run again here.`,
        },
      };
    }
    // A failed mark leaves the run `started`: a restart does not run it again, which is what matters.
    return { run: true, finished: () => void desk.ran(approvalId).catch(() => {}) };
  };
}

/**
 * How a call's `context.ask` reaches the person: through the same desk and channel as approvals
 * (a `question` event, answered with `desk.reply`). Undefined where no one can be asked.
 */
export function questionChannel(
  approvals: TurnApprovals | undefined,
  call: GatedCall & { tool: string },
): ExecuteOptions['ask'] {
  if (approvals === undefined || approvals.mode !== 'ask') return undefined;
  const { desk } = approvals;
  return async (question, signal) => {
    let questionId = '';
    const answer = await desk.ask(
      { sessionId: call.sessionId, turnId: call.turnId, callId: call.callId, tool: call.tool },
      question,
      question.timeoutMs ?? desk.timeoutMs,
      signal,
      (pending) => {
        questionId = pending.id;
        call.emit({
          type: 'question',
          questionId: pending.id,
          callId: pending.callId,
          tool: pending.tool,
          question: pending.question,
          ...(pending.choices === undefined ? {} : { choices: pending.choices }),
          ...(pending.fields === undefined ? {} : { fields: pending.fields }),
          ...(pending.required === undefined ? {} : { required: pending.required }),
          expiresAt: pending.expiresAt,
        });
      },
    );
    call.emit({
      type: 'question-ended',
      questionId,
      callId: call.callId,
      tool: call.tool,
      answered: typeof answer === 'object',
    });
    if (typeof answer === 'object') return { answered: true, ...answer };
    if (answer === 'declined') return { answered: false, reason: 'cancelled' };
    return { answered: false, reason: signal.aborted ? 'cancelled' : 'timeout' };
  };
}
