import { createHmac, randomBytes } from 'node:crypto';
import { type InputRequiredResult, inputRequired, inputResponse } from '@modelcontextprotocol/server';

/** The key of the approval question in a call's `inputRequests` and `inputResponses`. */
const APPROVAL_INPUT = 'approve';
/** Signs the calls put to a person; a new one each start, since a question outlives no process. */
const SECRET = randomBytes(32);

/** The question a call that needs approval puts to the person, in both revisions (a form with one yes/no). */
export function approvalQuestion(tool: string, params: Record<string, unknown>) {
  return {
    message: `Riverse: run ${tool} with ${JSON.stringify(params).slice(0, 2_000)}?`,
    requestedSchema: {
      type: 'object' as const,
      properties: {
        approve: {
          type: 'boolean' as const,
          title: `Run ${tool}`,
          description: 'Yes runs the call once; anything else refuses it.',
        },
      },
      required: ['approve'],
    },
  };
}

export type ApprovalRound = { kind: 'approved' } | { kind: 'refused' } | { kind: 'ask'; result: InputRequiredResult };

/**
 * Approval in the 2026-07-28 revision, where a server sends no requests of its own: the call is
 * answered with an input-required result (the question as a form elicitation, and the call's stamp
 * as `requestState`), and the client sends the call again with the person's answer. An answer
 * counts only beside the stamp of this very call (tool and arguments), so an approval given for
 * one call cannot be replayed on another, nor sent without being asked. A client that declared
 * no elicitation gets the SDK's -32021 naming it.
 */
export function approvalRound(
  tool: string,
  params: Record<string, unknown>,
  request: { inputResponses?: Record<string, unknown>; requestState: () => unknown },
): ApprovalRound {
  const stamp = createHmac('sha256', SECRET)
    .update(JSON.stringify([tool, params]))
    .digest('base64url');
  const answer = inputResponse(request.inputResponses, APPROVAL_INPUT);
  if (answer.kind === 'elicit' && request.requestState() === stamp)
    return answer.action === 'accept' && answer.content?.approve === true ? { kind: 'approved' } : { kind: 'refused' };
  return {
    kind: 'ask',
    result: inputRequired({
      inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit({ mode: 'form', ...approvalQuestion(tool, params) }) },
      requestState: stamp,
    }),
  };
}
