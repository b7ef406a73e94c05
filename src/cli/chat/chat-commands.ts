import type { Store } from '../../store/store.ts';
import type { ToolRegistry } from '../../tool-runtime/tool-registry.ts';
import { CHAT_COMMAND_TEXT, type ChatCommandText } from './chat-command-text.ts';
import { shownListing, table } from '../format.ts';
import type { Language } from '../../core/language.ts';
import { recapLines, sessionRecap } from './session-recap.ts';

/** What a chat command does: end the chat, or print something (and perhaps switch the session). */
export type ChatCommandOutcome = { exit: true } | { exit?: false; print: string; session?: string };

export interface ChatCommandContext {
  language: Language;
  registry: ToolRegistry;
  session: string;
  store: Store | undefined;
  /** Where lines are cut (a terminal's width). */
  width: number;
}

const COMMANDS = ['help', 'tools', 'session', 'exit'] as const;

/**
 * The chat's own commands, answered here and never sent to the model: `/help`, `/tools`,
 * `/session [NAME]`, `/exit` (or `/quit`); any other `/word` is said to be no command. A line
 * that only starts with a slash (`/etc/hosts is…`) is a message. Undefined for a message.
 */
export async function chatCommand(line: string, context: ChatCommandContext): Promise<ChatCommandOutcome | undefined> {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+(.*))?$/s.exec(line);
  if (match === null) return undefined;
  const word = match[1]!.toLowerCase();
  const argument = match[2]?.trim();
  const text = CHAT_COMMAND_TEXT[context.language];
  switch (word) {
    case 'exit':
    case 'quit':
      return { exit: true };
    case 'help':
      return { print: help(text) };
    case 'tools':
      return { print: tools(context, text) };
    case 'session': {
      const name = argument === undefined || argument === '' ? context.session : argument;
      const current = name === context.session;
      const recap = await sessionRecap(context.store, name);
      const print =
        recap === undefined
          ? (current ? text.current : text.session)(name, 0, undefined)
          : recapLines(name, recap, text, context.width, current).join('\n');
      return current ? { print } : { print, session: name };
    }
    default:
      return { print: `${text.unknownCommand(match[1]!)}\n${help(text)}` };
  }
}

function help(text: ChatCommandText): string {
  return `${text.helpTitle}\n${table(COMMANDS.map((name) => [`  /${name}`, text.commands[name]]))}`;
}

function tools({ registry, language }: ChatCommandContext, text: ChatCommandText): string {
  const rows = shownListing(registry, language).map((tool) => [
    `  ${tool.name}`,
    tool.available ? text.available : text.unavailable(tool.reason ?? ''),
  ]);
  const broken = new Set(
    registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.file),
  ).size;
  return [rows.length === 0 ? text.noTools : table(rows), ...(broken === 0 ? [] : [text.notLoaded(broken)])].join('\n');
}
