import type { Attempt } from './read-call.ts';

/**
 * The reply without the call spans (and the backticks of inline code around a bare call). Where a
 * span was cut out, the prose on each side is joined by a blank line, or a space within a line.
 */
export function textOutside(reply: string, attempts: readonly Attempt[]): string {
  const pieces: string[] = [];
  let cursor = 0;
  for (const { start, end } of attempts) {
    if (start < cursor) continue;
    let from = start;
    let to = end;
    if (reply[from - 1] === '`' && reply[to] === '`' && reply[from - 2] !== '`') {
      from--;
      to++;
    }
    pieces.push(reply.slice(cursor, from));
    cursor = to;
  }
  pieces.push(reply.slice(cursor));
  return pieces.reduce(joinAtCut).trim();
}

function joinAtCut(left: string, right: string): string {
  const before = left.replace(/\s+$/, '');
  const after = right.replace(/^\s+/, '');
  if (before === '' || after === '') return before + after;
  const newline =
    left.slice(before.length).includes('\n') || right.slice(0, right.length - after.length).includes('\n');
  return before + (newline ? '\n\n' : ' ') + after;
}
