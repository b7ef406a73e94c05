import { classify, EXPECTED, looksLikeCall, type Attempt } from './read-call.ts';
import { hints, matchEnd, parseLenient, parseSequence, skipSpace } from './lenient-json.ts';

// The blocks of a reply that may hold calls: ``` fences (tagged tool_call or json, or untagged) and <tool_call> tags.

/** Fence info strings that mark a call block outright, and those that may hold one. */
const CALL_TAGS = new Set(['tool_call', 'tool_calls', 'tool-call', 'tool', 'function_call']);
const JSON_TAGS = new Set(['json', 'jsonc', 'json5', 'jsonl']);

type BlockKind = 'call' | 'json' | 'untagged' | 'other';

export interface Block {
  start: number;
  end: number;
  body: string;
  kind: BlockKind;
  /** How errors name it: "```json block". */
  label: string;
}

/** Fenced blocks (``` with any info string, inline or not) and `<tool_call>` tags, in order. */
export function findBlocks(reply: string): Block[] {
  const blocks: Block[] = [];
  // Every close search scans to the end of the reply, so bracket ends found once hold for all.
  const ends = new Map<number, number>();
  const opener = /(`{3,})[ \t]*([\w.+-]*)|<tool_call>/g;
  let match: RegExpExecArray | null;
  while ((match = opener.exec(reply)) !== null) {
    const start = match.index;
    const ticks = match[1];
    const bodyStart = start + match[0].length;
    let close: string;
    let kind: BlockKind;
    let label: string;
    if (ticks === undefined) {
      close = '</tool_call>';
      kind = 'call';
      label = '<tool_call> block';
    } else {
      const tag = (match[2] ?? '').toLowerCase();
      close = ticks;
      kind = CALL_TAGS.has(tag) ? 'call' : JSON_TAGS.has(tag) ? 'json' : tag === '' ? 'untagged' : 'other';
      label = `${ticks}${tag} block`;
    }
    const closeAt = findClose(reply, bodyStart, close, kind !== 'other', ends);
    const end = closeAt === -1 ? reply.length : closeAt + close.length;
    blocks.push({ start, end, body: reply.slice(bodyStart, closeAt === -1 ? reply.length : closeAt), kind, label });
    opener.lastIndex = end;
  }
  return blocks;
}

/**
 * Where a block closes. For JSON the balanced end of the value is tried first, so a fence inside a
 * string argument (code with ``` in it) does not end the block early.
 */
function findClose(reply: string, bodyStart: number, close: string, json: boolean, ends: Map<number, number>): number {
  if (json) {
    const valueStart = skipSpace(reply, bodyStart);
    if (reply[valueStart] === '{' || reply[valueStart] === '[') {
      const valueEnd = matchEnd(reply, valueStart, reply.length, ends);
      if (valueEnd !== -1) {
        const after = skipSpace(reply, valueEnd);
        if (reply.startsWith(close, after)) return after;
      }
    }
  }
  return reply.indexOf(close, bodyStart);
}

export function readBlock(reply: string, block: Block): Attempt | undefined {
  if (block.kind === 'other') return undefined;
  const body = block.body.trim();
  if (block.kind === 'untagged' && !/^[{[]/.test(body)) return undefined;
  const { start, end } = block;
  const alone = reply.slice(0, start).trim() === '' && reply.slice(end).trim() === '';
  const parsed = parseLenient(body);
  if ('value' in parsed) return classify(parsed.value, alone, start, end);
  // Several objects one after another (one per line) is a common way to write several calls.
  const values = parseSequence(body);
  if (values !== undefined) {
    const attempt = classify(values, alone, start, end);
    if (attempt !== undefined) return attempt;
  }
  const tried = block.kind === 'call' || looksLikeCall(body) || (block.kind === 'json' && alone);
  if (!tried) return undefined;
  if (body === '') return { start, end, error: `The ${block.label} is empty. ${EXPECTED}` };
  return { start, end, error: `The ${block.label} is not valid JSON: ${parsed.error}${hints(body)} ${EXPECTED}` };
}
