import { createInterface } from 'node:readline/promises';
import type { TurnEvent } from '../assistant/turn-events.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { CLI_TEXT, interfaceLanguage } from './cli-text.ts';
import { createAssistant } from './create-assistant.ts';
import type { GlobalOptions } from './load-tools.ts';
import { shortPath } from './format.ts';
import { renderToolCall } from './render-tool-call.ts';

/** `riverse chat`: an interactive chat in the terminal, streamed, one line per tool call. */
export async function chat(options: GlobalOptions & { session?: string; lang?: Language }): Promise<number> {
  const { assistant, tools, store, config } = await createAssistant({ ...options, persist: true, watch: true, interactive: true });
  const text = CLI_TEXT[interfaceLanguage(options.lang ?? (config.config.language as string | undefined))];
  const session = options.session ?? 'default';
  const out = process.stdout;
  const rl = createInterface({ input: process.stdin, output: out, terminal: process.stdin.isTTY === true });
  // Lines are queued from the start: piped input (or typing ahead) arrives while a reply is being
  // written, and a line read when no question was pending would be lost.
  const lines = rl[Symbol.asyncIterator]();
  rl.setPrompt(text.prompt);
  // Piped input may end while lines are still queued; readline refuses to prompt once closed.
  let inputClosed = false;
  rl.once('close', () => (inputClosed = true));
  let running: AbortController | undefined;
  rl.on('SIGINT', () => (running !== undefined ? running.abort() : rl.close()));
  process.on('SIGINT', () => running?.abort());

  out.write(`${text.welcome(assistant.model.id, tools.current.tools().length, session)}\n`);
  // Tools edited while chatting: the next message uses them; say so on stderr.
  tools.onChange((changes) => {
    for (const change of changes) process.stderr.write(`${text.toolsChanged(change.event, shortPath(change.file), change.tools)}\n`);
  });
  try {
    for (;;) {
      if (inputClosed) out.write(text.prompt);
      else rl.prompt();
      const next = await lines.next();
      if (next.done === true) break; // input closed (Ctrl+D, end of piped input, or Ctrl+C at the prompt)
      const line = next.value.trim();
      if (line === '') continue;
      if (line === '/exit' || line === '/quit') break;
      running = new AbortController();
      const printer = createPrinter(out, text);
      const result = await assistant.turn(line, { session, signal: running.signal, onEvent: printer });
      running = undefined;
      printer.end();
      if (result.stopReason === 'error' || result.stopReason === 'aborted') process.stderr.write(`${result.text}\n`);
    }
  } finally {
    rl.close();
    store?.close();
    await tools.close();
  }
  out.write(`${text.goodbye}\n`);
  return 0;
}

/** Writes a turn's events as they come: text streams, tool calls get a line each. */
function createPrinter(out: NodeJS.WriteStream, text: (typeof CLI_TEXT)[Language]) {
  let atLineStart = true;
  const write = (chunk: string) => {
    if (chunk === '') return;
    out.write(chunk);
    atLineStart = chunk.endsWith('\n');
  };
  const line = (chunk: string) => {
    if (!atLineStart) write('\n');
    write(`${chunk}\n`);
  };
  const printer = (event: TurnEvent) => {
    if (event.type === 'text-delta') write(event.text);
    else if (event.type === 'tool-result') line(renderToolCall(event.call, out.isTTY ? out.columns : Number.POSITIVE_INFINITY)); // piped: whole lines
    else if (event.type === 'retry') line(text.retrying);
    else if (event.type === 'model-retry') line(text.modelRetry(event.error.code, event.delayMs < 10_000 ? Math.round(event.delayMs / 100) / 10 : Math.round(event.delayMs / 1000)));
  };
  printer.end = () => {
    if (!atLineStart) write('\n');
  };
  return printer;
}
