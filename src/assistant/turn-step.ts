import type { TurnResult } from './turn-events.ts';

/** A step of the turn leads to the same round asked once more (a fallback, a repair). */
export interface Again {
  kind: 'again';
}

/** A step of the turn ended it. */
export interface End {
  kind: 'end';
  result: TurnResult;
}

export const AGAIN: Again = { kind: 'again' };

export function end(result: TurnResult): End {
  return { kind: 'end', result };
}
