import { turnFailed } from '../../assistant/turn-events.ts';
import type { Language } from '../../core/language.ts';
import { CLI_TEXT } from '../cli-text.ts';
import { createAssistant } from '../create-assistant.ts';
import { listenForInterrupts } from '../interrupt.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { turnFailureLine } from './turn-failure.ts';
import { printJson } from '../format.ts';

/** `riverse ask "…"`: one question, the reply on stdout (`--json`: the whole turn; kept, with its trace, only in a `--session`). Exit 1 when the turn failed. */
export async function ask(
  question: string,
  options: GlobalOptions & { session?: string; lang?: Language; json?: boolean },
): Promise<number> {
  // Listening from the start: Ctrl-C while the tools load ends the command at once.
  const interrupts = listenForInterrupts({ stillStopping: CLI_TEXT[options.language].stillStopping });
  try {
    const { assistant, store, tools } = await createAssistant({
      ...options,
      persist: options.session !== undefined,
      watch: false,
    });
    try {
      const signal = interrupts.begin();
      const result = await assistant.turn(question, {
        signal,
        approvals: 'deny',
        ...(options.session === undefined ? {} : { session: options.session }),
      });
      interrupts.end();
      if (options.json === true) {
        // The error as the service's API gives it: its code and message (its phrase is for rendering).
        const { said: _said, ...error } = result.error ?? {};
        printJson({ model: assistant.model.id, ...result, ...(result.error === undefined ? {} : { error }) });
      } else if (turnFailed(result)) process.stderr.write(turnFailureLine(result, options.language));
      else process.stdout.write(`${result.text}\n`);
      return turnFailed(result) ? 1 : 0;
    } finally {
      await store?.close();
      await tools.close();
    }
  } finally {
    interrupts.close();
  }
}
