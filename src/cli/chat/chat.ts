import { createInterface } from 'node:readline/promises';
import { writeAbovePrompt } from './above-prompt.ts';
import { CHAT_COMMAND_TEXT } from './chat-command-text.ts';
import { chatCommand } from './chat-commands.ts';
import { turnFailed, type TurnEvent } from '../../assistant/turn-events.ts';
import type { TaskDelivery } from '../../assistant/task-delivery.ts';
import type { Language } from '../../core/language.ts';
import { CLI_TEXT } from '../cli-text.ts';
import { createAssistant } from '../create-assistant.ts';
import { INTERRUPTED_EXIT, listenForInterrupts, type Interrupts } from '../interrupt.ts';
import type { GlobalOptions } from '../load-tools.ts';
import { lineReader, terminalPrompts } from './person-prompt.ts';
import { renderToolCall } from './render-tool-call.ts';
import { recapLines, sessionRecap } from './session-recap.ts';
import { toolChangeLine } from './tool-change-line.ts';
import { turnFailureLine } from './turn-failure.ts';
import { toolChangeNews } from './tool-change-news.ts';

/** `riverse chat`: an interactive chat in the terminal, streamed, one line per tool call. */
export async function chat(options: GlobalOptions & { session?: string; lang?: Language }): Promise<number> {
  // Ctrl-C: cancels a reply (a second press while it stops quits); at the prompt, or while the tools load, quits.
  let quit: (() => void) | undefined;
  const interrupts = listenForInterrupts({
    stillStopping: CLI_TEXT[options.language].stillStopping,
    onIdle: () => (quit ?? (() => process.exit(INTERRUPTED_EXIT)))(),
  });
  try {
    return await chatLoop(options, interrupts, (close) => (quit = close));
  } finally {
    interrupts.close();
  }
}

/** The chat itself; `onQuit` is given what a Ctrl-C at the prompt does (undefined once the chat is closing: then it exits). */
async function chatLoop(
  options: GlobalOptions & { session?: string; lang?: Language },
  interrupts: Interrupts,
  onQuit: (close: (() => void) | undefined) => void,
): Promise<number> {
  let atPrompt = false;
  // A task's result arrives between turns: shown above the prompt (the next message's turn reads it too).
  const delivered = (delivery: TaskDelivery) => writeAbovePrompt(delivery.message.content, rl, out, out, atPrompt);
  const { assistant, tools, store, tasks } = await createAssistant({
    ...options,
    persist: true,
    watch: true,
    interactive: true,
    tasks: { onDelivered: (delivery) => delivered(delivery) },
  });
  const text = CLI_TEXT[options.language];
  const commandText = CHAT_COMMAND_TEXT[options.language];
  let session = options.session ?? 'default';
  const out = process.stdout;
  const rl = createInterface({ input: process.stdin, output: out, terminal: process.stdin.isTTY === true });
  // Lines are queued from the start: piped input (or typing ahead) arrives while a reply is being
  // written, and a line read when no question was pending would be lost.
  // The chat and the approval prompts read the same lines (person-prompt.ts).
  const lines = lineReader(rl[Symbol.asyncIterator]());
  rl.setPrompt(text.prompt);
  // Piped input may end while lines are still queued; readline refuses to prompt once closed.
  let inputClosed = false;
  rl.once('close', () => (inputClosed = true));
  onQuit(() => rl.close());
  // In a terminal, readline takes the keypress itself and tells only its own listeners.
  rl.on('SIGINT', () => interrupts.press());

  const width = () => (out.isTTY ? out.columns : Number.POSITIVE_INFINITY); // piped: whole lines
  out.write(`${text.welcome(assistant.model.id, tools.current.tools().length, session)}\n`);
  const recap = await sessionRecap(store, session);
  if (recap !== undefined) out.write(`${recapLines(session, recap, commandText, width()).join('\n')}\n`);
  // Tools edited while chatting: the next message uses them; say so on stderr, once per file
  // changed, above the prompt (and what is being typed there).
  const news = toolChangeNews(tools.current);
  tools.onChange((changes) => {
    for (const change of news(changes))
      writeAbovePrompt(toolChangeLine(change, options.language), rl, out, process.stderr, atPrompt);
  });
  try {
    for (;;) {
      if (inputClosed) out.write(text.prompt);
      else rl.prompt();
      atPrompt = true;
      const next = await lines.next();
      atPrompt = false;
      if (next === undefined) break; // input closed (Ctrl+D, end of piped input, or Ctrl+C at the prompt)
      const line = next.trim();
      if (line === '') continue;
      // The chat's own commands are answered here; the model never sees them.
      const command = await chatCommand(line, {
        language: options.language,
        registry: tools.current,
        session,
        store,
        width: width(),
      });
      if (command?.exit === true) break;
      if (command !== undefined) {
        out.write(`${command.print}\n`);
        session = command.session ?? session;
        continue;
      }
      const printer = createPrinter(out, text);
      const prompts = terminalPrompts({
        approvals: assistant.approvals,
        reader: lines,
        write: printer.write,
        language: options.language,
        echoes: rl.terminal,
      });
      const result = await assistant.turn(line, {
        session,
        signal: interrupts.begin(),
        onEvent: (event) => {
          printer(event);
          prompts(event);
        },
      });
      interrupts.end();
      printer.end();
      if (turnFailed(result)) process.stderr.write(turnFailureLine(result, options.language));
    }
  } finally {
    onQuit(undefined);
    rl.close();
    await tasks?.close(); // the chat's tasks end with it (interrupted: a later start does not run them again)
    await store?.close();
    await tools.close();
  }
  out.write(`${text.goodbye}\n`);
  return 0;
}

/** A tool call running this long is announced, and again every few seconds. */
const TOOL_NOTICE_S = 3;
const TOOL_NOTICE_EVERY_S = 5;

/**
 * Writes a turn's events as they come: text streams, tool calls get a line each, and so does a
 * model that keeps silent — in a terminal, one line rewritten in place and erased when the reply
 * goes on.
 */
function createPrinter(out: NodeJS.WriteStream, text: (typeof CLI_TEXT)[Language]) {
  let atLineStart = true;
  let status = false;
  const write = (chunk: string) => {
    if (status) {
      out.write('\r\x1b[K');
      status = false;
    }
    if (chunk === '') return;
    out.write(chunk);
    atLineStart = chunk.endsWith('\n');
  };
  const waiting = (message: string) => {
    if (!out.isTTY) return line(message);
    if (!atLineStart) write('\n');
    out.write(`\r\x1b[K${message}`);
    status = true;
  };
  // Tool calls still running: after a few seconds the person is told which, and for how long (every 5 s).
  const running = new Map<string, { tool: string; since: number }>();
  let lastTold = 0;
  const ticker = setInterval(() => {
    if (running.size === 0) return;
    const oldest = Math.min(...[...running.values()].map((call) => call.since));
    const seconds = Math.round((performance.now() - oldest) / 1000);
    if (lastTold === 0 ? seconds < TOOL_NOTICE_S : seconds - lastTold < TOOL_NOTICE_EVERY_S) return;
    lastTold = seconds;
    waiting(text.toolRunning([...new Set([...running.values()].map((call) => call.tool))].join(', '), seconds));
  }, 1_000);
  ticker.unref();
  const line = (chunk: string) => {
    if (!atLineStart) write('\n');
    write(`${chunk}\n`);
  };
  const printer = (event: TurnEvent) => {
    if (event.type === 'text-delta') write(event.text);
    else if (event.type === 'tool-call') running.set(event.callId, { tool: event.tool, since: performance.now() });
    else if (event.type === 'tool-result') {
      running.delete(event.call.callId);
      if (running.size === 0) lastTold = 0;
      line(renderToolCall(event.call, out.isTTY ? out.columns : Number.POSITIVE_INFINITY)); // piped: whole lines
    } else if (event.type === 'approval-request' || event.type === 'question') {
      // Waiting for the person is not running: no "still running" notice over the prompt.
      running.delete(event.callId);
      if (!atLineStart) write('\n');
    } else if (event.type === 'approval-answered' && (event.decision === 'approved' || event.decision === 'always'))
      running.set(event.callId, { tool: event.tool, since: performance.now() });
    else if (event.type === 'question-ended') running.set(event.callId, { tool: event.tool, since: performance.now() });
    else if (event.type === 'retry') line(text.retrying);
    else if (event.type === 'model-waiting') waiting(text.modelWaiting(Math.round(event.seconds)));
    else if (event.type === 'model-retry')
      line(
        text.modelRetry(
          event.error.code,
          event.delayMs < 10_000 ? Math.round(event.delayMs / 100) / 10 : Math.round(event.delayMs / 1000),
        ),
      );
  };
  printer.write = write;
  printer.end = () => {
    clearInterval(ticker);
    if (status) write('');
    if (!atLineStart) write('\n');
  };
  return printer;
}
