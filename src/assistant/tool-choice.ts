import type { ToolChoice } from '../models/chat-model.ts';
import { finishTurn } from './finish-turn.ts';
import type { TurnResult } from './turn-events.ts';
import type { TurnState } from './turn-state.ts';
import type { TurnTools } from './turn-tools.ts';

/**
 * The caller's `tool_choice` against what the turn offers: `required` needs a tool, a name needs
 * that tool (the caller's, or one of ours this turn offers). Undefined when it can be honoured;
 * else the turn's end (`invalid-tool-choice`).
 */
export function checkToolChoice(turn: TurnState, tools: TurnTools): TurnResult | undefined {
  const choice = turn.options.toolChoice;
  if (choice === undefined || choice === 'auto' || choice === 'none') return undefined;
  const name = typeof choice === 'string' ? undefined : choice.name;
  const offered = tools.definitions.some((definition) => name === undefined || definition.name === name);
  if (offered) return undefined;
  const message =
    name === undefined
      ? 'tool_choice is "required", and the turn has no tools to offer'
      : `tool_choice names "${name}", which is not a tool of this turn (the request's, or Riverse's offered)`;
  return finishTurn(turn, 'error', turn.text.unknownToolChoice(name), { code: 'invalid-tool-choice', message });
}

/** The turn offers no tools at all: `tool_choice: "none"`. */
export function toolsWithheld(turn: TurnState): boolean {
  return turn.options.toolChoice === 'none';
}

/**
 * The choice sent with the next request that offers tools. `required` holds for every request
 * while the caller's tools are offered (the turn ends when one of theirs is called), else until
 * the first call; a named tool until it has been called. Then the model decides (`auto`).
 */
export function nextToolChoice(turn: TurnState, tools: TurnTools): ToolChoice | undefined {
  const choice = turn.options.toolChoice;
  if (choice === undefined || choice === 'auto' || choice === 'none') return undefined;
  if (choice === 'required') return tools.client !== undefined || turn.toolCalls.length === 0 ? 'required' : undefined;
  return turn.toolCalls.some((record) => record.tool === choice.name) ? undefined : choice;
}
