import { clearLine, cursorTo, type Interface } from 'node:readline';

/**
 * Writes a line while the person may be typing at the prompt. In a terminal the prompt line is
 * cleared, the line written in its place, and the prompt drawn again below it with what was typed
 * so far; otherwise (piped) the line is written as it is, so the output stays whole lines.
 */
export function writeAbovePrompt(
  line: string,
  rl: Interface,
  prompt: NodeJS.WritableStream & { isTTY?: boolean },
  to: NodeJS.WritableStream,
  atPrompt: boolean,
): void {
  if (!atPrompt || prompt.isTTY !== true) {
    to.write(`${line}\n`);
    return;
  }
  cursorTo(prompt, 0);
  clearLine(prompt, 0);
  to.write(`${line}\n`);
  rl.prompt(true);
}
