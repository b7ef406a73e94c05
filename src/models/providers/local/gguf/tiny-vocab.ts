import { TokenType } from './gguf-format.ts';

/** A SentencePiece ("llama") vocabulary as `tokenizer.ggml.*` stores it. */
export interface TinyVocab {
  tokens: string[];
  scores: number[];
  types: number[];
  unk: number;
  bos: number;
  eos: number;
}

/** SentencePiece writes spaces as this character. */
const SPACE = '\u2581';

/** A few whole words; the rest goes by characters or bytes. */
const PIECES = ['tool', 'arguments', 'answer', 'city', 'weather', 'the', 'is', 'in', 'you', 'what', 'hello'];

/**
 * Control tokens, the 256 byte tokens (so any text tokenizes: what no piece covers falls back to
 * bytes), then printable ASCII and a few words. Longer pieces score higher, so merges prefer them.
 */
export function tinyVocab(): TinyVocab {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const add = (token: string, type: number, score: number) => {
    tokens.push(token);
    types.push(type);
    scores.push(score);
  };
  add('<unk>', TokenType.unknown, 0);
  add('<s>', TokenType.control, 0);
  add('</s>', TokenType.control, 0);
  // ChatML's markers, for the chat template.
  add('<|im_start|>', TokenType.control, 0);
  add('<|im_end|>', TokenType.control, 0);
  for (let byte = 0; byte < 256; byte++)
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, TokenType.byte, 0);
  const seen = new Set<string>();
  const piece = (text: string) => {
    if (seen.has(text)) return;
    seen.add(text);
    add(text, TokenType.normal, text.length - tokens.length / 10_000);
  };
  piece(SPACE);
  for (let code = 33; code < 127; code++) piece(String.fromCharCode(code));
  for (const word of PIECES) {
    piece(word);
    piece(SPACE + word);
  }
  return { tokens, scores, types, unk: 0, bos: 1, eos: tokens.indexOf('<|im_end|>') };
}

/** A ChatML template (Jinja), as chat models ship in `tokenizer.chat_template`. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
