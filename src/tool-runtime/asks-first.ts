import type { ToolManifest } from '../tools/tool-manifest.ts';
import { type AskAnswer, type AskQuestion, checkQuestion } from '../tools/tool-context.ts';
import type { ExecuteOptions } from './execute-tool.ts';

// A long_running tool's `asks_first` (decision 033's addendum): questions asked in the call's own
// channel before the call becomes a task; the tool's `context.ask` of the same key then gets the
// answer at once, wherever the task runs.

type Ask = NonNullable<ExecuteOptions['ask']>;

/** The manifest's `asks_first` as `context.ask` passes questions on (validated already; a bad one is left out). */
export function upFrontQuestions(manifest: ToolManifest): AskQuestion[] {
  const asks = manifest.asks_first;
  if (!Array.isArray(asks)) return [];
  return asks.flatMap(({ question, ...options }) => {
    const checked = checkQuestion(question, options);
    return typeof checked === 'string' ? [] : [checked];
  });
}

/** Asks each question in turn through `ask` (none: `unavailable`), answers by key; stops at a cancelled signal. */
export async function askUpFront(
  questions: readonly AskQuestion[],
  ask: Ask | undefined,
  signal: AbortSignal,
): Promise<Map<string, AskAnswer>> {
  const answers = new Map<string, AskAnswer>();
  for (const question of questions) {
    if (signal.aborted) answers.set(question.key!, { answered: false, reason: 'cancelled' });
    else
      answers.set(
        question.key!,
        ask === undefined ? { answered: false, reason: 'unavailable' } : await ask(question, signal),
      );
  }
  return answers;
}

/** The call's `ask`, where a question whose key was asked up front gets that answer at once (every time it is asked). */
export function withUpFrontAnswers(answers: ReadonlyMap<string, AskAnswer>, ask: Ask | undefined): Ask | undefined {
  if (answers.size === 0) return ask;
  return async (question, signal) => {
    const given = question.key === undefined ? undefined : answers.get(question.key);
    if (given !== undefined) return given;
    return ask === undefined ? { answered: false, reason: 'unavailable' } : ask(question, signal);
  };
}
