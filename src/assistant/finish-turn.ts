import type { ToolCallRequest } from '../models/chat-message.ts';
import { ModelError } from '../models/model-error.ts';
import type { StopReason, TurnResult } from './turn-events.ts';
import type { TurnState } from './turn-state.ts';

/**
 * The turn's last step: its outcome, kept on the turn (`ending`) for runTurn to tell as `done` once
 * the turn's writes are settled (endTurn). A turn stopped from outside (a store that failed while
 * the answer was saved, say) has that for its outcome, whatever it was doing.
 */
export function finishTurn(
  turn: TurnState,
  stopReason: StopReason,
  reply: string,
  error?: TurnResult['error'],
  clientCalls?: ToolCallRequest[],
): TurnResult {
  turn.ending = {
    stopReason,
    reply,
    ...(error === undefined ? {} : { error }),
    ...(clientCalls === undefined ? {} : { clientCalls }),
  };
  return resultOf(turn);
}

/** The result as it stands: the steps' ending, unless the turn was halted. */
function resultOf(turn: TurnState): TurnResult {
  let { stopReason, reply, error, clientCalls } = turn.ending ?? {
    stopReason: 'error' as const,
    reply: turn.text.internalError('the turn ended without an outcome'),
    error: { code: 'internal' as const, message: 'the turn ended without an outcome' },
  };
  const halted = turn.halted;
  if (halted !== undefined) {
    stopReason = halted.stopReason;
    reply = halted.text;
    error = { code: halted.code, message: halted.message };
    clientCalls = undefined;
  }
  return {
    text: reply,
    stopReason,
    messages: turn.added,
    toolCalls: turn.toolCalls,
    requests: turn.requests,
    usage: turn.usage,
    ...(error === undefined ? {} : { error }),
    ...(clientCalls === undefined ? {} : { clientCalls }),
  };
}

/**
 * Ends the turn: waits for its writes (a message that could not be stored halts it: `store-failed`),
 * then tells the result as `done`.
 */
export async function endTurn(turn: TurnState): Promise<TurnResult> {
  await turn.settled();
  const result = resultOf(turn);
  turn.emit({ type: 'done', result });
  return result;
}

/**
 * The model's answer ends the turn: a reply without calls, or the last one (the round limit, or a
 * loop stopped), which says so when it is empty (the model still asked for tools it can no longer have).
 */
export function answerTurn(turn: TurnState, answer: string, last: boolean): TurnResult {
  if (last && answer.trim() === '') {
    answer = turn.text.incomplete;
    turn.emit({ type: 'text-delta', text: answer });
  }
  turn.commit({ role: 'assistant', content: answer });
  return finishTurn(turn, !last ? 'answer' : turn.stopNote !== undefined ? 'loop-stopped' : 'round-limit', answer);
}

/** Cancelled by the caller, or halted (finishTurn says which). */
export function cancelTurn(turn: TurnState): TurnResult {
  return finishTurn(turn, 'aborted', turn.text.cancelled, { code: 'aborted', message: turn.text.cancelled });
}

/** What a step threw ends the turn: cancellation, a model's failure (its code), or Riverse's own fault (`internal`). */
export function failTurn(turn: TurnState, error: unknown): TurnResult {
  if (turn.signal.aborted || (error instanceof ModelError && error.code === 'aborted')) return cancelTurn(turn);
  const { text } = turn;
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ModelError))
    return finishTurn(turn, 'error', text.internalError(message), { code: 'internal', message });
  const limit = error.limit;
  // In the turn's language where the error was made as a phrase (a model server that cannot be reached);
  // the phrase goes along, for a page to say it in its reader's language.
  const reply =
    limit === undefined
      ? text.modelFailed(error.localized(turn.options.language))
      : text.modelLimit(error.code, limit.setting, limit.value);
  return finishTurn(turn, 'error', reply, {
    code: error.code,
    message,
    ...(error.said === undefined ? {} : { said: error.said }),
  });
}
