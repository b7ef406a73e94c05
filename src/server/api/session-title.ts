import type { Language } from '../../core/language.ts';
import type { ChatModel } from '../../models/chat-model.ts';

/** How long the model has to name a chat; the turn's stream waits for it at most this long after it starts. */
const TITLE_TIMEOUT_MS = 8_000;
/** A reply longer than this is no title: the request is cut there. */
const MAX_REPLY_CHARS = 200;
/** A title longer than this is cut at a word (the session list cuts it further, with an ellipsis). */
const MAX_TITLE_CHARS = 60;
/** What the model reads of the first message. */
const MAX_MESSAGE_CHARS = 2_000;

const ASK: Record<Language, string> = {
  en: 'Write a short title (at most six words) for a chat that begins with the message below. Reply with the title only, in English: no quotes, no final period.',
  zh: '为以下面这条消息开头的对话写一个简短的标题（不超过 15 个字）。只回复标题，用中文，不要引号和句号。',
  ja: '次のメッセージで始まるチャットに短いタイトル（15 文字以内）を付けてください。タイトルだけを日本語で答え、引用符や句点は付けないでください。',
};

/**
 * A short title for a chat from its first message, asked of `model` in the person's language:
 * bounded in time (TITLE_TIMEOUT_MS, and `signal`) and in size; undefined on any failure, which
 * leaves the chat the name cut from its message.
 */
export async function modelTitle(
  model: ChatModel,
  message: string,
  language: Language,
  signal: AbortSignal,
): Promise<string | undefined> {
  const limit = new AbortController();
  const stop = AbortSignal.any([signal, limit.signal, AbortSignal.timeout(TITLE_TIMEOUT_MS)]);
  let text = '';
  try {
    for await (const event of model.stream({
      system: ASK[language],
      messages: [{ role: 'user', content: [...message].slice(0, MAX_MESSAGE_CHARS).join('') }],
      stream: true,
      signal: stop,
      deadline: Date.now() + TITLE_TIMEOUT_MS,
    })) {
      if (event.type === 'tool-call' || event.type === 'tool-call-delta') return undefined;
      if (event.type === 'text-delta') text += event.text;
      if (text.length > MAX_REPLY_CHARS) return undefined;
    }
  } catch {
    return undefined;
  } finally {
    limit.abort(); // a reply abandoned halfway is not read further
  }
  return cleanTitle(text);
}

/** The title in a model's reply: its first line, without quotes, markup, a "Title:" label or a final period. */
export function cleanTitle(reply: string): string | undefined {
  let title = (reply.split('\n').find((line) => line.trim() !== '') ?? '').trim();
  title = title.replace(/^(#+\s*|\*+|title\s*[:：]\s*|标题\s*[:：]\s*|タイトル\s*[:：]\s*)/i, '');
  title = title.replace(/^[\s"'`*“”‘’「」『』《》]+|[\s"'`*“”‘’「」『』《》.。]+$/g, '');
  title = title
    .replace(/[.。]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...title];
  if (chars.length > MAX_TITLE_CHARS) {
    const cut = chars.slice(0, MAX_TITLE_CHARS).join('');
    title = `${cut.includes(' ') ? cut.replace(/\s+\S*$/, '') : cut}…`;
  }
  return title === '' ? undefined : title;
}
