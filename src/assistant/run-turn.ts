import { askModel } from './ask-model.ts';
import { answerTurn, endTurn, failTurn } from './finish-turn.ts';
import { prepareTools } from './prepare-tools.ts';
import { readToolCalls } from './read-tool-calls.ts';
import { runRound } from './run-round.ts';
import { checkAnswer } from './structured-output.ts';
import { checkToolChoice } from './tool-choice.ts';
import type { TurnResult } from './turn-events.ts';
import type { TurnOptions } from './turn-options.ts';
import { TurnState } from './turn-state.ts';
import { TurnTools } from './turn-tools.ts';

export { DEFAULT_TURN_TIMEOUT_MS, type TurnOptions } from './turn-options.ts';

/**
 * One turn: the user's message → the model sees the tools → zero or more rounds of calls, run in
 * parallel, every result (failures included) returned to the model → the final reply. A turn
 * without tool calls costs one model request; with one round of calls, two. Never throws: model
 * failures, cancellation, the deadline, a failing listener or store end the turn with a stop
 * reason, keeping every completed message in the result.
 *
 * Each step is a file of its own, sharing the turn's state (turn-state.ts): prepare-tools,
 * ask-model, read-tool-calls, run-round, finish-turn.
 */
export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const turn = new TurnState(options);
  try {
    await steps(turn, options);
    return await endTurn(turn);
  } finally {
    turn.close();
  }
}

/** The turn's steps, until one of them ends it (finishTurn). */
async function steps(turn: TurnState, options: TurnOptions): Promise<TurnResult> {
  try {
    // First thing in the try: a registry or a router that fails here must not make runTurn throw.
    const tools = await prepareTools(turn);
    if (!(tools instanceof TurnTools)) return tools;
    const refused = checkToolChoice(turn, tools);
    if (refused !== undefined) return refused;
    if (options.input !== undefined)
      turn.commit({
        role: 'user',
        content: options.input,
        ...(options.inputImages === undefined ? {} : { images: options.inputImages }),
      });
    let round = 0;
    for (;;) {
      tools.refresh(turn.dialect());
      // The last request has no tools: the round limit, or a loop of failing calls, makes the model answer.
      const last = round >= turn.maxRounds || turn.stopNote !== undefined;
      const asked = await askModel(turn, tools, last);
      if (asked.kind === 'end') return asked.result;
      if (asked.kind === 'again') continue; // the same round in the text protocol (once: the mode is now text)
      const read = readToolCalls(turn, tools, asked.reply, round, last);
      if (read.kind === 'end') return read.result;
      if (read.kind === 'again') continue; // the same round after the repair message (once a turn)
      if (read.calls.length === 0 || last) {
        const format = options.responseFormat;
        if (format === undefined) return answerTurn(turn, read.answer, last);
        // The answer must be the JSON asked for: checked, and asked again once when it is not.
        const checked = checkAnswer(turn, format, read.answer);
        if (checked.kind === 'end') return checked.result;
        if (checked.kind === 'again') continue;
        return answerTurn(turn, checked.text, last);
      }
      const ended = await runRound(turn, tools, asked.reply, read);
      if (ended !== undefined) return ended;
      round++;
    }
  } catch (error) {
    return failTurn(turn, error);
  }
}
