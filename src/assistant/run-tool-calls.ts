import type { ToolCallRequest } from '../models/chat-message.ts';
import { jsonText } from '../models/json-text.ts';
import type { ExecuteOptions } from '../tool-runtime/execute-tool.ts';
import { failure } from '../tool-runtime/execute-tool.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import type { Language } from '../core/language.ts';
import { approvalGate, questionChannel, type TurnApprovals } from './approval-gate.ts';
import { ASSISTANT_TEXT } from './assistant-text.ts';
import { FIND_TOOLS, type OfferedTools } from './offered-tools.ts';
import type { ToolCallRecord, TurnEvent } from './turn-events.ts';
import { executeOrHandOver, isHandle, type TurnTasks } from './task-calls.ts';

/** How many times one exact call may fail in a turn before it is no longer run. */
const MAX_IDENTICAL_FAILURES = 2;

export interface ToolCallsContext {
  registry: ToolRegistry;
  language: Language;
  execute: ExecuteOptions;
  /** Failures per exact call (tool + arguments) so far in this turn. */
  failures: Map<string, number>;
  emit: (event: TurnEvent) => void;
  /** Where calls that outlive the turn go (task-calls.ts); without it every call is the turn's. */
  tasks?: TurnTasks;
  /** The tools offered this turn: a call to another is refused, and find_tools is run here. */
  offered?: OfferedTools;
  /** Who approves the calls that need it; without it they are refused (approval-gate.ts). */
  approvals?: TurnApprovals;
  /** The turn's id, which approvals are recorded under. */
  turnId: string;
  /** Calls running at once, at most (default: all of the batch). */
  parallel?: number;
  /** Told when a call started a fresh tool host, and how long it took (the turn's trace). */
  hostStart?: (callId: string, ms: number) => void;
  /** A call's `context.sample`: the turn's model (tool-sampling.ts); without it, none. */
  sample?: (callId: string) => ExecuteOptions['sample'];
}

/**
 * Runs one round of calls: concurrently, `parallel` at most at once, except that a tool marked
 * `exclusive` runs alone. Results come back in call order; none of this throws.
 */
export async function runToolCalls(
  calls: readonly ToolCallRequest[],
  context: ToolCallsContext,
): Promise<ToolCallRecord[]> {
  const records: ToolCallRecord[] = [];
  let batch: ToolCallRequest[] = [];
  const flush = async () => {
    records.push(...(await runBounded(batch, context.parallel ?? batch.length, (call) => runToolCall(call, context))));
    batch = [];
  };
  for (const call of calls) {
    if (context.registry.get(call.name)?.manifest.exclusive === true) {
      await flush();
      records.push(await runToolCall(call, context));
    } else batch.push(call);
  }
  await flush();
  return records;
}

/**
 * The records of calls that are not run (past the ceiling of one reply): each has a result saying
 * so, which the model reads as the call's tool message, so the conversation stays valid.
 */
export function notRunCalls(calls: readonly ToolCallRequest[], ran: number, language: Language): ToolCallRecord[] {
  if (calls.length === 0) return []; // the usual round: no Date to format
  const text = ASSISTANT_TEXT[language];
  const startedAt = new Date().toISOString();
  return calls.map((call) => {
    const parsed = parseArguments(call.arguments);
    return {
      callId: call.id,
      tool: call.name,
      params: parsed.ok ? parsed.value : call.arguments,
      result: failure('too-many-calls', text.callNotRun(call.name, ran)),
      durationMs: 0,
      startedAt,
    };
  });
}

/** `run` over `items`, `limit` at most at once (each lane takes the next item when it is free), results in order. */
async function runBounded<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

async function runToolCall(call: ToolCallRequest, context: ToolCallsContext): Promise<ToolCallRecord> {
  const text = ASSISTANT_TEXT[context.language];
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const parsed = parseArguments(call.arguments);
  const params = parsed.ok ? parsed.value : call.arguments;
  context.emit({ type: 'tool-call', callId: call.id, tool: call.name, params });
  const waited = { ms: 0 }; // time spent waiting for the person's approval: not the call's
  let taskId: string | undefined; // set when the call became a task

  // The exact call's key is written out only when the turn has failed calls to match, or this one failed.
  const keyOf = () => `${call.name}\u0000${parsed.ok ? jsonText(parsed.value) : call.arguments}`;
  const failures = context.failures.size === 0 ? 0 : (context.failures.get(keyOf()) ?? 0);
  const offered = context.offered;
  const result = !parsed.ok
    ? failure('invalid-params', text.invalidArguments(call.name, parsed.error))
    : offered !== undefined && !offered.offers(call.name)
      ? // In a routed turn the catalog may hold thousands: the model is told of what it was shown, not all of them.
        context.registry.get(call.name) !== undefined
        ? failure('not-offered', text.notOffered(call.name))
        : failure('unknown-tool', text.unknownInRoutedTurn(call.name, offered.names()))
      : offered?.routed === true && call.name === FIND_TOOLS
        ? await offered.find(parsed.value, context.execute.signal)
        : failures >= MAX_IDENTICAL_FAILURES
          ? failure('repeated', text.repeatedCall(call.name, failures))
          : await (context.tasks === undefined
              ? context.registry.execute(call.name, parsed.value, withPerson(call, context, waited))
              : executeOrHandOver(
                  context.registry,
                  call,
                  parsed.value,
                  withPerson(call, context, waited),
                  context.tasks,
                  context.language,
                )
            )
              .then((answer) => {
                if (!isHandle(answer)) return answer;
                taskId = answer.task.id;
                return answer.result;
              })
              .catch((error: unknown) =>
                // `execute` is not meant to throw; if it does (arguments that overflow the stack), this call fails, not the turn.
                failure(
                  'threw',
                  `Riverse could not run ${call.name} with these arguments: ${error instanceof Error ? error.message : String(error)}`,
                ),
              );
  if (!result.success && result.code !== 'repeated') context.failures.set(keyOf(), failures + 1);

  const record: ToolCallRecord = {
    callId: call.id,
    tool: call.name,
    params,
    result,
    durationMs: tenthOfMs(Math.max(0, performance.now() - started - waited.ms)),
    startedAt,
    ...(taskId === undefined ? {} : { taskId }),
  };
  context.emit({ type: 'tool-result', call: record });
  return record;
}

/**
 * The call's options: the turn's, with the approval gate and the question channel bound to this
 * call. The time the gate waits for the person is added to `waited`.
 */
function withPerson(call: ToolCallRequest, context: ToolCallsContext, waited: { ms: number }): ExecuteOptions {
  const bound = {
    callId: call.id,
    tool: call.name,
    sessionId: context.execute.sessionId ?? 'default',
    turnId: context.turnId,
    emit: context.emit,
    ...(context.execute.signal === undefined ? {} : { signal: context.execute.signal }),
  };
  const ask = questionChannel(context.approvals, bound);
  const gate = approvalGate(context.approvals, bound);
  const approve: typeof gate = async (tool, params) => {
    const asked = performance.now();
    try {
      return await gate(tool, params);
    } finally {
      waited.ms += performance.now() - asked;
    }
  };
  const { callId, tool, emit } = bound;
  const sample = context.sample?.(callId);
  return {
    ...context.execute,
    approve,
    ...(sample === undefined ? {} : { sample }),
    ...(ask === undefined ? {} : { ask }),
    // What the call says while it runs reaches whoever watches the turn (the dashboard's card, the API's stream).
    onProgress: (report) => emit({ type: 'tool-progress', callId, tool, ...report }),
    onLog: (report) => emit({ type: 'tool-log', callId, tool, ...report }),
    ...(context.hostStart === undefined ? {} : { onHostStart: (ms: number) => context.hostStart!(callId, ms) }),
  };
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** A duration to a tenth of a millisecond: finer than a timer can tell apart is noise in a trace. */
function tenthOfMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}
