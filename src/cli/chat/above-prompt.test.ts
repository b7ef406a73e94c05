import assert from 'node:assert/strict';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { writeAbovePrompt } from './above-prompt.ts';

/** A readline prompt on a pretend terminal, with "Tok" typed so far. */
function terminal() {
  const input = new PassThrough();
  const screen = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let written = '';
  screen.setEncoding('utf8').on('data', (chunk: string) => (written += chunk));
  const rl = createInterface({ input, output: screen, terminal: true });
  rl.setPrompt('you> ');
  rl.prompt();
  input.write('Tok');
  return { rl, screen, read: () => written, clear: () => (written = '') };
}

test('in a terminal, a line written at the prompt goes above it, and the prompt comes back with what was typed', async () => {
  const { rl, screen, read, clear } = terminal();
  await new Promise((resolve) => setImmediate(resolve));
  clear();
  writeAbovePrompt('↻ agent/tools/w.ts changed', rl, screen, screen, true);
  await new Promise((resolve) => setImmediate(resolve));
  const shown = read();
  // Back to the line's start, the line cleared, the message, then the prompt and "Tok" again.
  assert.match(shown, /^\x1b\[1G\x1b\[2K↻ agent\/tools\/w\.ts changed\n.*you> Tok/s);
  rl.close();
});

test('piped, or while a reply is written, the line is written as it is', () => {
  const { rl, screen } = terminal();
  const out = new PassThrough();
  let written = '';
  out.setEncoding('utf8').on('data', (chunk: string) => (written += chunk));
  writeAbovePrompt('a line', rl, Object.assign(new PassThrough(), { isTTY: false }), out, true);
  writeAbovePrompt('another', rl, screen, out, false);
  out.end();
  return new Promise<void>((resolve) =>
    out.on('end', () => {
      assert.equal(written, 'a line\nanother\n');
      rl.close();
      resolve();
    }),
  );
});
