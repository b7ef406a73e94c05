import type { ChatMessage } from '../models/chat-message.ts';
import { cancelTurn, finishTurn } from './finish-turn.ts';
import type { ModelReply } from './request-model.ts';
import { notRunCalls, runToolCalls } from './run-tool-calls.ts';
import { modelSampler } from './tool-sampling.ts';
import { turnPart } from './earlier-parts.ts';
import { formatToolResultsForText } from './text-protocol/tool-results.ts';
import { toolOutput } from './tool-output.ts';
import type { TurnResult } from './turn-events.ts';
import type { TurnState } from './turn-state.ts';
import type { TurnTools } from './turn-tools.ts';
import type { ReadCalls } from './read-tool-calls.ts';

/**
 * One round of calls: the reply that asked for them joins the conversation, ours run (in parallel,
 * a bounded number at once; run-tool-calls.ts) and every result goes back to the model, failures
 * included, and a result saying so for each call past the ceiling of one reply. The turn ends here
 * when it was stopped meanwhile, or when the reply called the caller's tools (`tool-calls`: ours of
 * that reply ran first); otherwise undefined, for the next round.
 */
export async function runRound(
  turn: TurnState,
  tools: TurnTools,
  reply: ModelReply,
  read: ReadCalls,
): Promise<TurnResult | undefined> {
  const { options } = turn;
  const client = tools.client;
  let calls = read.calls;
  // The caller's calls get ids of their own (unique across conversations) and its schema's arguments.
  const forClient = client === undefined ? [] : calls.filter((call) => client.has(call.name));
  if (forClient.length > 0) {
    const given = new Map(forClient.map((call) => [call, client!.callForClient(call)]));
    calls = calls.map((call) => given.get(call) ?? call);
  }
  const textMode = turn.mode === 'text';
  turn.commit(
    textMode
      ? { role: 'assistant', content: reply.text }
      : { role: 'assistant', content: reply.text, toolCalls: calls },
  );
  const ours = forClient.length === 0 ? calls : calls.filter((call) => !client!.has(call.name));
  // Past the ceiling a call is not run, but still answered: every provider wants a result per call.
  const run = ours.slice(0, turn.maxCalls);
  const unrun = notRunCalls(ours.slice(turn.maxCalls), turn.maxCalls, options.language);
  if (unrun.length > 0) turn.roundNote = turn.text.tooManyCalls(turn.maxCalls, unrun.length);
  const dialect = turn.dialect();
  const ran = await runToolCalls(run, {
    registry: options.registry,
    language: options.language,
    failures: turn.failures,
    emit: turn.emit,
    offered: tools.offered,
    ...(options.tasks === undefined ? {} : { tasks: options.tasks }),
    turnId: turn.turnId,
    parallel: turn.parallelCalls,
    ...(options.tracer === undefined ? {} : { hostStart: options.tracer.hostStart }),
    sample: (callId) => modelSampler(turn.model, callId, options.tracer),
    ...(options.approvals === undefined ? {} : { approvals: { ...options.approvals, unsettled: turn.unsettled } }),
    execute: {
      language: options.language,
      ...(dialect === undefined ? {} : { dialect }),
      signal: turn.signal,
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      // context.resultPart: this turn's calls first, then the earlier turns' (the session's traces).
      findPart: async (callId, index) => turnPart(turn.toolCalls, callId, index) ?? options.findPart?.(callId, index),
    },
  });
  turn.toolCalls.push(...ran);
  const records = unrun.length === 0 ? ran : [...ran, ...unrun];
  if (textMode) {
    const outputs = records.map((record) => toolOutput(record));
    // The results' pictures ride on the message that tells the results.
    const images = outputs.flatMap((output) => output.images ?? []);
    turn.commit({
      role: 'user',
      content: formatToolResultsForText(outputs, options.language),
      ...(images.length === 0 ? {} : { images }),
    });
  } else {
    // A call still waiting for approval when the turn stopped keeps no result here: its approval
    // can still be answered, and the next turn reads what then happened from the call's trace.
    const unsettled = turn.unsettled;
    const settled = unsettled.size === 0 ? records : records.filter((record) => !unsettled.has(record.callId));
    turn.commit(
      ...settled.map((record): ChatMessage => ({ role: 'tool', toolCallId: record.callId, ...toolOutput(record) })),
    );
  }
  if (turn.signal.aborted) return cancelTurn(turn); // or halted: finishTurn says which
  if (forClient.length > 0) {
    return finishTurn(
      turn,
      'tool-calls',
      read.answer,
      undefined,
      calls.filter((call) => client!.has(call.name)),
    );
  }
  // Every call of the round was a repeat of a failing one: stop calling, let the model answer.
  if (ran.every((record) => record.result.code === 'repeated')) turn.stopNote = turn.text.loopStopped;
  return undefined;
}
