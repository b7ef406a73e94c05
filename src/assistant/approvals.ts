import { randomUUID } from 'node:crypto';
import { jsonText } from '../models/json-text.ts';
import { memoryApprovals, type ApprovalRecords } from '../store/approval-store.ts';
import { memoryQuestions } from '../store/question-store.ts';
import type { ApprovalRecord, QuestionRecord, QuestionSettlement, QuestionStatus } from '../store/store-records.ts';
import type { QuestionRepository, Store } from '../store/store.ts';
import { StoreWatch } from '../store/store-watch.ts';
import { waitForStored } from '../store/stored-wait.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';
import { checkFormValues, formText, type AskFields, type FormValues } from '../tools/ask-form.ts';

/** Two minutes: long enough to read a call and decide, short enough that a turn nobody watches ends. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

export type ApprovalDecision = 'approve' | 'always' | 'deny';

/** A person's answer to an approval. `callId`, `tool` and `params`, when given, must be the approval's: an answer meant for another call is refused. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  reason?: string;
  callId?: string;
  tool?: string;
  params?: unknown;
}

/** How an approval ended for the call that waited: run it, or not (and why). */
export type ApprovalOutcome =
  | { approved: true; always: boolean }
  | { approved: false; code: 'denied' | 'approval-timeout' | 'aborted'; reason?: string };

/** A question a tool asks the person (`context.ask`, the ask_user tool), as shown: stored, so that any replica shows and answers it; it lives as long as its call. */
export type PendingQuestion = Pick<
  QuestionRecord,
  'id' | 'sessionId' | 'callId' | 'tool' | 'question' | 'choices' | 'fields' | 'required' | 'createdAt' | 'expiresAt'
> & { kind: 'question' };

/** How a question ended: the answer (a form's with its values), the person declined, or none came. */
export type QuestionAnswer = { text: string; values?: FormValues } | 'declined' | undefined;

export type PendingApproval = Pick<
  ApprovalRecord,
  'id' | 'sessionId' | 'callId' | 'tool' | 'params' | 'createdAt' | 'expiresAt'
> & { kind: 'approval' };
export type PendingRequest = PendingApproval | PendingQuestion;

/** The result of answering, for the channel that answered. */
export type AnswerOutcome =
  | { ok: true; approval: ApprovalRecord; result?: CheckedToolResult }
  | { ok: false; code: 'not-found' | 'not-pending' | 'approval-mismatch'; message: string };

export interface ApprovalsOptions {
  /** Where approvals are kept (its `approvals`, and the traces of calls run outside their turn); in memory without one. */
  store?: Store;
  /** The tools, for a call approved after its turn is gone (Riverse restarted, the turn was cancelled). */
  registry?: () => ToolRegistry;
  /** How long an approval waits before it counts as a denial (`assistant.approval_timeout_ms`). */
  timeoutMs?: number;
  /**
   * Whether a session's turn runs in another live process sharing the store (a replica): its
   * approvals are then answered here, stored, and run there — not here as an orphan.
   */
  runsElsewhere?: (sessionId: string) => Promise<boolean>;
  /** How often a waiting call looks in the store for an answer another process stored (default 250 ms). */
  watchMs?: number;
}

interface Waiter {
  settle: (outcome: ApprovalOutcome) => void;
}

/** The answer an asking call gets from a settled question (undefined: it ended unanswered). */
function answerOf(
  record: { status: QuestionStatus; answer?: string; values?: FormValues } | undefined,
): QuestionAnswer {
  if (record?.status === 'declined') return 'declined';
  if (record?.status !== 'answered') return undefined;
  const text = record.answer ?? '';
  return record.values === undefined ? { text } : { text, values: record.values };
}

/**
 * Where calls wait for a person and where the answers arrive, whatever the channel (terminal,
 * dashboard, API). Each approval is bound to one call (its id, tool and checked parameters) and
 * stored before anyone is asked; an answer is stored before the call it allows runs. A turn
 * waiting on an approval is woken by its answer; an approval whose turn is gone (a restart, a
 * cancelled turn) can still be answered: the call then runs at once, outside any turn, and its
 * result is recorded as the call's trace, which the conversation gets when it goes on.
 */
export class Approvals {
  readonly timeoutMs: number;
  readonly #records: ApprovalRecords;
  readonly #store: Store | undefined;
  readonly #registry: (() => ToolRegistry) | undefined;
  readonly #waiters = new Map<string, Waiter>();
  readonly #questionRecords: QuestionRepository;
  /** Questions asked here, by id: the settle of the call waiting for the answer. */
  readonly #questions = new Map<string, (answer: QuestionAnswer) => void>();
  /** Everything waiting here (approvals and questions) looks in the store for an answer another process stored; none without a store. */
  readonly #watch: StoreWatch | undefined;
  readonly #runsElsewhere: (sessionId: string) => Promise<boolean>;

  constructor(options: ApprovalsOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.#store = options.store;
    this.#records = options.store?.approvals ?? memoryApprovals();
    this.#questionRecords = options.store?.questions ?? memoryQuestions();
    this.#registry = options.registry;
    this.#runsElsewhere = options.runsElsewhere ?? (async () => false);
    this.#watch = options.store === undefined ? undefined : new StoreWatch(options.watchMs);
  }

  alwaysAllowed(sessionId: string, tool: string): Promise<boolean> {
    return this.#records.alwaysAllowed(sessionId, tool);
  }

  /**
   * Stores a pending approval for this call, tells `announce` of it, and waits for the answer, the
   * time limit (a denial, `approval-timeout`) or `signal` (`aborted`; the approval stays pending).
   */
  async request(
    call: { sessionId: string; turnId: string; callId: string; tool: string; params: Record<string, unknown> },
    signal: AbortSignal | undefined,
    announce: (pending: PendingApproval) => void,
  ): Promise<ApprovalOutcome & { approvalId: string }> {
    const now = Date.now();
    const record = {
      id: randomUUID(),
      ...call,
      params: structuredClone(call.params),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.timeoutMs).toISOString(),
    };
    // Stored before anyone is asked: a person on another replica can see it and answer.
    await this.#records.add(record);
    if (signal?.aborted) return { approved: false, code: 'aborted', approvalId: record.id };
    return new Promise((resolve) => {
      const settle = (outcome: ApprovalOutcome) => {
        this.#waiters.delete(record.id);
        this.#watch?.stop(record.id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve({ ...outcome, approvalId: record.id });
      };
      const onAbort = () => settle({ approved: false, code: 'aborted' });
      const timer = setTimeout(
        () => {
          // An answer may have been stored a moment before: the stored state wins.
          void (async () => {
            if (await this.#records.decide(record.id, 'timed-out'))
              settle({ approved: false, code: 'approval-timeout' });
            else settle(outcomeOf(await this.#records.get(record.id)));
          })().catch(() => settle({ approved: false, code: 'approval-timeout' }));
        },
        Math.min(this.timeoutMs, 2 ** 31 - 1),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      const waiter = { settle };
      this.#waiters.set(record.id, waiter);
      this.#watch?.watch(record.id, async () => {
        const stored = await this.#records.get(record.id);
        if (stored !== undefined && stored.status !== 'pending' && this.#waiters.get(record.id) === waiter)
          settle(outcomeOf(stored));
      });
      announce({
        kind: 'approval',
        id: record.id,
        sessionId: record.sessionId,
        callId: record.callId,
        tool: record.tool,
        params: record.params,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
      });
    });
  }

  /**
   * Marks the run of an approved call as begun (then done, with `ran`): a call approved before a
   * restart is run after it only if it never began. False when it has begun already — elsewhere:
   * another Riverse process on the same store took the answer — and must not run again here.
   */
  running(approvalId: string): Promise<boolean> {
    return this.#records.setRun(approvalId, 'started');
  }

  async ran(approvalId: string): Promise<void> {
    await this.#records.setRun(approvalId, 'done');
  }

  /** Approvals and questions waiting for an answer, oldest first (approvals past their time are settled as timed out first). */
  async pending(): Promise<PendingRequest[]> {
    await this.#expireOrphans();
    const approvals: PendingRequest[] = (await this.#records.pending()).map((record) => ({
      kind: 'approval',
      id: record.id,
      sessionId: record.sessionId,
      callId: record.callId,
      tool: record.tool,
      params: record.params,
      createdAt: record.createdAt,
      expiresAt: record.expiresAt,
    }));
    const questions = (await this.#questionRecords.pending()).filter((record) => !this.#endedOrphan(record));
    return [...approvals, ...questions.map(shownQuestion)].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * Answers an approval. The answer is stored first; then a waiting turn goes on, or — its turn
   * being gone — an approved call runs now and its result comes back here.
   */
  async answer(id: string, answer: ApprovalAnswer): Promise<AnswerOutcome> {
    const record = await this.#records.get(id);
    if (record === undefined)
      return { ok: false, code: 'not-found', message: `There is no approval ${JSON.stringify(id)}.` };
    const mismatch = mismatchOf(record, answer);
    if (mismatch !== undefined)
      return {
        ok: false,
        code: 'approval-mismatch',
        message: `This answer is for another call: its ${mismatch} differs from approval ${id}'s (${record.tool}, call ${record.callId}). Nothing was decided.`,
      };
    const waiter = this.#waiters.get(id);
    if (
      waiter === undefined &&
      Date.parse(record.expiresAt) <= Date.now() &&
      !(await this.#runsElsewhere(record.sessionId))
    )
      await this.#expireOrphans();
    const status = answer.decision === 'deny' ? 'denied' : 'approved';
    const always = answer.decision === 'always';
    if (
      !(await this.#records.decide(id, status, {
        always,
        ...(answer.reason === undefined || answer.reason === '' ? {} : { reason: answer.reason }),
      }))
    ) {
      const now = (await this.#records.get(id))!;
      return {
        ok: false,
        code: 'not-pending',
        message: `Approval ${id} is no longer pending: it was ${now.status === 'timed-out' ? 'timed out' : now.status}.`,
      };
    }
    if (always) await this.#records.allowAlways(record.sessionId, record.tool);
    const decided = (await this.#records.get(id))!;
    if (waiter !== undefined) {
      waiter.settle(outcomeOf(decided));
      return { ok: true, approval: decided };
    }
    // Its turn waits in another replica: that one finds the answer in the store and runs the call.
    if (await this.#runsElsewhere(record.sessionId)) return { ok: true, approval: decided };
    const result = await this.#settleOrphan(decided);
    return { ok: true, approval: (await this.#records.get(id))!, ...(result === undefined ? {} : { result }) };
  }

  /** Runs the approved calls whose run never began because Riverse stopped first (call once at start). */
  async resume(): Promise<void> {
    for (const record of await this.#records.approvedNotRun())
      if (!this.#waiters.has(record.id) && !(await this.#runsElsewhere(record.sessionId)))
        await this.#settleOrphan(record);
  }

  /**
   * Asks the person a question for a running call and waits for the answer: its text (and a form's
   * values), `declined`, or undefined (no answer in time, or cancelled). The question is stored
   * before anyone is asked, so that any replica shows and answers it; an answer stored by another
   * process reaches this call through the same watch as approvals'.
   */
  async ask(
    call: { sessionId: string; turnId: string; callId: string; tool: string },
    asked: { question: string; choices?: readonly string[]; fields?: AskFields; required?: readonly string[] },
    timeoutMs: number,
    signal: AbortSignal | undefined,
    announce: (pending: PendingQuestion) => void,
  ): Promise<QuestionAnswer> {
    const now = Date.now();
    const { question, choices, fields, required } = asked;
    const record = {
      id: randomUUID(),
      ...call,
      question,
      ...(choices === undefined ? {} : { choices: [...choices] }),
      ...(fields === undefined ? {} : { fields: structuredClone(fields) }),
      ...(required === undefined ? {} : { required: [...required] }),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutMs).toISOString(),
    };
    if (signal?.aborted) return undefined;
    const questions = this.#questionRecords;
    try {
      await questions.add(record);
    } catch {
      return undefined; // the store is failing: no one anywhere could see the question
    }
    const waiting = waitForStored<QuestionAnswer>({
      watch: this.#watch,
      id: record.id,
      read: async () => {
        const stored = await questions.get(record.id);
        return stored === undefined || stored.status === 'pending' ? undefined : { outcome: answerOf(stored) };
      },
      end: () => questions.settle(record.id, { status: 'ended' }),
      unanswered: () => undefined,
      timeoutMs,
      signal,
    });
    this.#questions.set(record.id, waiting.wake);
    if (!signal?.aborted) announce(shownQuestion(record));
    const answer = await waiting.done;
    this.#questions.delete(record.id);
    return answer;
  }

  /** Answers a question in words; false when no such question waits (a form is answered with `replyForm`). */
  async reply(id: string, text: string): Promise<boolean> {
    const record = await this.findQuestion(id);
    if (record === undefined || record.fields !== undefined) return false;
    return this.#settleQuestion(record, { status: 'answered', answer: text });
  }

  /** Answers a form with its values, checked against its fields (a field left out takes its default), here before they are stored. */
  async replyForm(
    id: string,
    values: unknown,
  ): Promise<{ ok: true; values: FormValues } | { ok: false; code: 'not-pending' | 'invalid'; message: string }> {
    const record = await this.findQuestion(id);
    const fields = record?.fields;
    const notPending = {
      ok: false,
      code: 'not-pending',
      message: `No form question ${id} is waiting for an answer.`,
    } as const;
    if (record === undefined || fields === undefined || record.status !== 'pending') return notPending;
    const checked = checkFormValues({ fields, ...(record.required ? { required: record.required } : {}) }, values);
    if (typeof checked === 'string') return { ok: false, code: 'invalid', message: checked };
    if (!(await this.#settleQuestion(record, { status: 'answered', answer: formText(checked), values: checked })))
      return notPending;
    return { ok: true, values: checked };
  }

  /** The person will not answer the question (the input ended): the tool hears `cancelled`. */
  async decline(id: string): Promise<boolean> {
    const record = await this.findQuestion(id);
    return record !== undefined && this.#settleQuestion(record, { status: 'declined' });
  }

  /** The question `id` as stored, waiting or settled, asked on this replica or another; undefined when there is none. */
  findQuestion(id: string): Promise<QuestionRecord | undefined> {
    return this.#questionRecords.get(id);
  }

  /**
   * Stores the answer if the question still waits (the first answer counts, across replicas), then
   * wakes its call when it waits here; one waiting elsewhere finds it in the store.
   */
  async #settleQuestion(record: QuestionRecord, settlement: QuestionSettlement): Promise<boolean> {
    if (this.#endedOrphan(record)) return false;
    if (!(await this.#questionRecords.settle(record.id, settlement))) return false;
    this.#questions.get(record.id)?.(answerOf(settlement));
    return true;
  }

  /**
   * A pending question past its time that no call here waits for: the call that asked stopped
   * waiting (its own timer ends it; a process that died cannot), so it is ended and takes no answer.
   */
  #endedOrphan(record: QuestionRecord): boolean {
    if (record.status !== 'pending' || this.#questions.has(record.id) || Date.parse(record.expiresAt) > Date.now())
      return false;
    void this.#questionRecords.settle(record.id, { status: 'ended' }).catch(() => {});
    return true;
  }

  /** Pending approvals that no turn waits for and whose time has passed: timed out, and recorded so the conversation learns it. */
  async #expireOrphans(): Promise<void> {
    const now = Date.now();
    for (const record of await this.#records.pending()) {
      if (this.#waiters.has(record.id) || Date.parse(record.expiresAt) > now) continue;
      if (await this.#runsElsewhere(record.sessionId)) continue;
      if (await this.#records.decide(record.id, 'timed-out'))
        await this.#settleOrphan((await this.#records.get(record.id))!);
    }
  }

  /** A decided approval whose turn is gone: an approved call runs now; either way its result is the call's trace. */
  async #settleOrphan(record: ApprovalRecord): Promise<CheckedToolResult | undefined> {
    const started = new Date().toISOString();
    const t0 = performance.now();
    let result: CheckedToolResult;
    if (record.status === 'approved') {
      const registry = this.#registry?.();
      if (registry === undefined || !(await this.#records.setRun(record.id, 'started'))) return undefined;
      result = await registry
        .execute(record.tool, record.params, { sessionId: record.sessionId })
        .catch((error: unknown) => ({ success: false, data: '', error: String(error), code: 'threw' as const }));
      await this.#records.setRun(record.id, 'done');
    } else {
      result = deniedResult(outcomeOf(record) as Extract<ApprovalOutcome, { approved: false }>, record.tool);
    }
    await this.#store?.recordToolCall({
      sessionId: record.sessionId,
      turnId: record.turnId,
      callId: record.callId,
      tool: record.tool,
      params: record.params,
      success: result.success,
      data: result.data,
      ...(result.error === undefined ? {} : { error: result.error }),
      ...(result.code === undefined ? {} : { code: result.code }),
      durationMs: Math.round((performance.now() - t0) * 10) / 10,
      startedAt: started,
    });
    return result;
  }
}

/** A stored question as the person is shown it (the API's list, the events). */
export function shownQuestion(record: Omit<QuestionRecord, 'status'>): PendingQuestion {
  return {
    kind: 'question',
    id: record.id,
    sessionId: record.sessionId,
    callId: record.callId,
    tool: record.tool,
    question: record.question,
    ...(record.choices === undefined ? {} : { choices: record.choices }),
    ...(record.fields === undefined ? {} : { fields: record.fields }),
    ...(record.required === undefined ? {} : { required: record.required }),
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
  };
}

/** What a settled record means for the call. */
function outcomeOf(record: ApprovalRecord | undefined): ApprovalOutcome {
  if (record?.status === 'approved') return { approved: true, always: record.always };
  if (record?.status === 'timed-out') return { approved: false, code: 'approval-timeout' };
  return { approved: false, code: 'denied', ...(record?.reason === undefined ? {} : { reason: record.reason }) };
}

/** The failed result a call not approved gets: the model reads it (in English, like every tool error). */
export function deniedResult(outcome: Extract<ApprovalOutcome, { approved: false }>, tool: string): CheckedToolResult {
  const error =
    outcome.code === 'denied'
      ? `The person denied this call to ${tool}; it did not run.${outcome.reason === undefined ? '' : ` Their reason: ${JSON.stringify(outcome.reason)}.`} Do not try it again unless they ask; answer them without it.`
      : outcome.code === 'approval-timeout'
        ? `This call to ${tool} needed the person's approval, and no answer came in time; it did not run.`
        : `The turn was stopped while this call to ${tool} waited for approval; it did not run.`;
  return { success: false, data: '', error, code: outcome.code };
}

function mismatchOf(record: ApprovalRecord, answer: ApprovalAnswer): string | undefined {
  if (answer.callId !== undefined && answer.callId !== record.callId) return 'call id';
  if (answer.tool !== undefined && answer.tool !== record.tool) return 'tool';
  if (answer.params !== undefined && jsonText(sorted(answer.params)) !== jsonText(sorted(record.params)))
    return 'parameters';
  return undefined;
}

/** A value with its object keys in order, so that two spellings of the same parameters compare equal. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}
