import type { Store } from '../../store/store.ts';
import type { ChatCommandText } from './chat-command-text.ts';

/** A kept session at a glance: how long it is, when it was last added to, and its last exchange. */
export interface SessionRecap {
  messages: number;
  /** Local time, to the minute: `2026-12-01 10:20`. */
  lastAt: string;
  you?: string;
  reply?: string;
}

/** The session's recap; undefined when it is new (or has no messages yet). */
export async function sessionRecap(store: Store | undefined, name: string): Promise<SessionRecap | undefined> {
  const info = await store?.findSession(name);
  if (store === undefined || info === undefined) return undefined;
  const messages = await store.messages(info.id);
  if (messages.length === 0) return undefined;
  const asked = messages.findLastIndex((message) => message.role === 'user');
  const reply = messages
    .slice(asked + 1)
    .findLast((message) => message.role === 'assistant' && message.content.trim() !== '');
  return {
    // Counted as the dashboard counts them (listSessions): the person's and the replies with text.
    messages: messages.filter(
      (message) => message.role === 'user' || (message.role === 'assistant' && message.content !== ''),
    ).length,
    lastAt: localMinute(info.updatedAt),
    ...(asked < 0 ? {} : { you: messages[asked]!.content }),
    ...(reply === undefined ? {} : { reply: reply.content }),
  };
}

/**
 * `Resuming session "trip": 12 messages, the last on …` and the last exchange, one line each, cut to
 * `width`; `current` says it is the session the chat is in instead (nothing is resumed).
 */
export function recapLines(
  name: string,
  recap: SessionRecap,
  text: ChatCommandText,
  width: number,
  current = false,
): string[] {
  const line = (who: string, said: string | undefined) =>
    said === undefined ? [] : [clip(`  ${who}: ${said.replace(/\s+/g, ' ').trim()}`, width)];
  return [
    (current ? text.current : text.resuming)(name, recap.messages, recap.lastAt),
    ...line(text.you, recap.you),
    ...line(text.assistant, recap.reply),
  ];
}

function localMinute(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}`;
}

function clip(text: string, width: number): string {
  // A terminal that does not say its size (0 columns: some ptys, CI) gets whole lines, not "hell…".
  if (!(width > 0) || text.length <= width) return text;
  return `${text.slice(0, width - 1)}…`;
}
