import { Hono } from 'hono';
import type { ApprovalDecision } from '../../assistant/approvals.ts';
import { ApiError } from '../api-error.ts';
import { readJsonObject } from '../read-json.ts';
import type { ServerContext } from '../server-context.ts';

const DECISIONS: readonly ApprovalDecision[] = ['approve', 'always', 'deny'];
/** A reason and an answer are read by a model: a paragraph, not a document. */
const MAX_REASON_CHARS = 2_000;
const MAX_ANSWER_CHARS = 10_000;

/**
 * `GET /api/approvals`: the calls waiting for a person's approval, and the questions tools ask
 * (ask_user), oldest first. `POST /api/approvals/:id`: the answer — `{ decision, reason? }` for an
 * approval (with `callId`, `tool`, `params` when the client wants the answer refused unless they
 * are still the approval's), `{ answer }` for a question, `{ values }` for a form (checked against its fields).
 */
export function approvalRoutes(context: ServerContext): Hono {
  const routes = new Hono();

  routes.get('/approvals', async (c) => c.json({ approvals: await context.approvals.pending() }));

  routes.post('/approvals/:id', async (c) => {
    const id = c.req.param('id');
    const body = await readJsonObject(c);
    // A question, asked here or on another replica: the store has it.
    const question = await context.approvals.findQuestion(id);
    const form = question?.fields;
    if (form !== undefined) {
      if (typeof body.values !== 'object' || body.values === null || Array.isArray(body.values))
        throw new ApiError(
          400,
          'invalid-request',
          `Question ${id} is a form: answer with "values", an object of its fields (${Object.keys(form).join(', ')}).`,
          'values',
        );
      const outcome = await context.approvals.replyForm(id, body.values);
      if (!outcome.ok && outcome.code === 'invalid')
        throw new ApiError(
          400,
          'invalid-request',
          `The answer to form ${id} does not fit: ${outcome.message}.`,
          'values',
        );
      if (!outcome.ok) throw new ApiError(409, 'not-pending', `Question ${id} is no longer waiting for an answer.`);
      return c.json({ question: { id, answered: true, values: outcome.values } });
    }
    if (question !== undefined) {
      if (typeof body.answer !== 'string' || body.answer.length > MAX_ANSWER_CHARS)
        throw new ApiError(
          400,
          'invalid-request',
          `A question is answered with "answer": text of at most ${MAX_ANSWER_CHARS} characters.`,
          'answer',
        );
      if (!(await context.approvals.reply(id, body.answer)))
        throw new ApiError(409, 'not-pending', `Question ${id} is no longer waiting for an answer.`);
      return c.json({ question: { id, answered: true } });
    }
    const { decision, reason, callId, tool, params } = body;
    if (!(DECISIONS as readonly unknown[]).includes(decision))
      throw new ApiError(400, 'invalid-request', `"decision" must be one of ${DECISIONS.join(', ')}.`, 'decision');
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_REASON_CHARS))
      throw new ApiError(
        400,
        'invalid-request',
        `"reason" must be text of at most ${MAX_REASON_CHARS} characters.`,
        'reason',
      );
    if (callId !== undefined && typeof callId !== 'string')
      throw new ApiError(400, 'invalid-request', '"callId" must be the call id of the approval request.', 'callId');
    if (tool !== undefined && typeof tool !== 'string')
      throw new ApiError(400, 'invalid-request', '"tool" must be the tool name of the approval request.', 'tool');
    const outcome = await context.approvals.answer(id, {
      decision: decision as ApprovalDecision,
      ...(reason === undefined ? {} : { reason: reason as string }),
      ...(callId === undefined ? {} : { callId: callId as string }),
      ...(tool === undefined ? {} : { tool: tool as string }),
      ...(params === undefined ? {} : { params }),
    });
    if (!outcome.ok) throw new ApiError(outcome.code === 'not-found' ? 404 : 409, outcome.code, outcome.message);
    const { approval, result } = outcome;
    return c.json({
      approval: {
        id: approval.id,
        callId: approval.callId,
        tool: approval.tool,
        status: approval.status,
        always: approval.always,
        ...(approval.reason === undefined ? {} : { reason: approval.reason }),
      },
      ...(result === undefined ? {} : { result }),
    });
  });

  return routes;
}
