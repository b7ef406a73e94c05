import { createInterface } from 'node:readline/promises';
import type { TurnEvent } from '../assistant/turn-events.ts';
import type { Language } from '../tools/tool-manifest.ts';
import { CLI_TEXT, interfaceLanguage } from './cli-text.ts';
import { createAssistant } from './create-assistant.ts';
import type { GlobalOptions } from './load-tools.ts';
import { renderToolCall } from './render-tool-call.ts';

/** `riverse chat`: an interactive chat in the terminal, streamed, one line per tool call. */
export async function chat(options: GlobalOptions & { session?: string; lang?: Language }): Promise<number> {
  const { assistant, registry, store, config } = await createAssistant({ ...options, persist: true });
  const text = CLI_TEXT[interfaceLanguage(options.lang ?? (config.config.language as string | undefined))];
  const session = options.session ?? 'default';
  const out = process.stdout;
  const rl = createInterface({ input: process.stdin, output: out, terminal: process.stdin.isTTY === true });
  let running: AbortController | undefined;
  rl.on('SIGINT', () => (running !== undefined ? running.abort() : rl.close()));
  process.on('SIGINT', () => running?.abort());

  out.write(`${text.welcome(assistant.model.id, registry.tools().length, session)}\n`);
  try {
    for (;;) {
      let line: string;
      try {
        line = (await rl.question(text.prompt)).trim();
      } catch {
        break; // input closed (Ctrl+D, end of piped input, or Ctrl+C at the prompt)
      }
      if (line === '') continue;
      if (line === '/exit' || line === '/quit') break;
      running = new AbortController();
      const printer = createPrinter(out, text.retrying);
      const result = await assistant.turn(line, { session, signal: running.signal, onEvent: printer });
      running = undefined;
      printer.end();
      if (result.stopReason === 'error' || result.stopReason === 'aborted') process.stderr.write(`${result.text}\n`);
    }
  } finally {
    rl.close();
    store?.close();
  }
  out.write(`${text.goodbye}\n`);
  return 0;
}

/** Writes a turn's events as they come: text streams, tool calls get a line each. */
function createPrinter(out: NodeJS.WriteStream, retrying: string) {
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
    else if (event.type === 'tool-result') line(renderToolCall(event.call, out.columns ?? 100));
    else if (event.type === 'retry') line(retrying);
  };
  printer.end = () => {
    if (!atLineStart) write('\n');
  };
  return printer;
}
