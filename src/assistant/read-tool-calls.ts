import type { ToolCallRequest } from '../models/chat-message.ts';
import { finishTurn } from './finish-turn.ts';
import type { ModelReply } from './request-model.ts';
import { parseTextToolCalls } from './text-protocol/parse-tool-calls.ts';
import { textProtocolRepair } from './text-protocol/repair-message.ts';
import { toolsWithheld } from './tool-choice.ts';
import type { TurnState } from './turn-state.ts';
import { AGAIN, end, type Again, type End } from './turn-step.ts';
import type { TurnTools } from './turn-tools.ts';

/** The calls a reply asks for (none: it is the answer), and its text without them. */
export interface ReadCalls {
  kind: 'calls';
  calls: ToolCallRequest[];
  answer: string;
}

export type Read = ReadCalls | Again | End;

/**
 * The calls of the model's reply of round `round`: native ones as they came, text-protocol ones
 * parsed from its text. A text-protocol call that cannot be parsed gets one repair round (the same
 * round asked again, told what was wrong); a second ends the turn. All are kept: those past
 * `maxCallsPerRound` are answered as not run (run-round.ts).
 */
export function readToolCalls(
  turn: TurnState,
  tools: TurnTools,
  reply: ModelReply,
  round: number,
  last: boolean,
): Read {
  const { text } = turn;
  let calls = reply.calls;
  let answer = reply.text;
  if (turn.mode === 'text' && !last && tools.any && !toolsWithheld(turn)) {
    const parsed = parseTextToolCalls(reply.text);
    if (parsed.kind === 'invalid') {
      if (turn.repaired) {
        const error = { code: 'unparsable-tool-call', message: parsed.error } as const;
        return end(finishTurn(turn, 'error', parsed.text || text.unparsableCall(parsed.error), error));
      }
      turn.repaired = true;
      turn.emit({ type: 'retry', reason: parsed.error });
      const repair = textProtocolRepair(parsed.error, turn.options.language);
      turn.commit({ role: 'assistant', content: reply.text }, { role: 'user', content: repair });
      return AGAIN;
    }
    const found = parsed.kind === 'calls' ? parsed.calls : [];
    calls = found.map((call, index) => ({ id: `text_${round}_${index}`, name: call.name, arguments: call.arguments }));
    answer = parsed.text;
    // Held back while it might have been a call (ask-model.ts): shown now.
    if (calls.length === 0 && turn.options.responseFormat === undefined)
      turn.emit({ type: 'text-delta', text: answer });
  }
  return { kind: 'calls', calls, answer };
}
