// Test support: a string that matches a regular expression, for the sample arguments of schemas
// with `pattern`. Handles what real tool schemas write (classes, groups, alternation, quantifiers,
// \d \w \s); returns undefined when its guess does not match.

const ESCAPES: Record<string, string> = {
  d: '0',
  w: 'a',
  s: ' ',
  D: 'a',
  W: '-',
  S: 'a',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '',
  B: '',
};

export function samplePattern(pattern: string): string | undefined {
  let at = 0;
  const peek = () => pattern[at];

  function alternation(): string {
    const first = sequence();
    while (peek() === '|') {
      at++;
      sequence();
    }
    return first;
  }

  function sequence(): string {
    let out = '';
    while (at < pattern.length && peek() !== '|' && peek() !== ')') {
      const atom = term();
      out += atom;
    }
    return out;
  }

  function term(): string {
    const piece = atom();
    const [min, max] = quantifier();
    // One repetition where allowed, so that `*` and `?` still show what they match.
    const count = Math.max(min, Math.min(1, max));
    return piece.repeat(count);
  }

  function quantifier(): [number, number] {
    const char = peek();
    let range: [number, number] = [1, 1];
    if (char === '?') range = [0, 1];
    else if (char === '*') range = [0, Infinity];
    else if (char === '+') range = [1, Infinity];
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
      if (match === null) return range;
      at += match[0].length;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      if (peek() === '?') at++;
      return [min, max];
    } else return range;
    at++;
    if (peek() === '?') at++;
    return range;
  }

  function atom(): string {
    const char = pattern[at++]!;
    if (char === '^' || char === '$') return '';
    if (char === '.') return 'a';
    if (char === '\\') return escaped();
    if (char === '[') return charClass();
    if (char === '(') {
      let lookaround = false;
      if (peek() === '?') {
        // (?:…) groups, (?<name>…) names, (?=…) (?!…) (?<=…) (?<!…) only look.
        const prefix = /^\?(?::|=|!|<=|<!|<[^>]*>)/.exec(pattern.slice(at))?.[0] ?? '?';
        lookaround = /^\?(?:=|!|<=|<!)/.test(prefix);
        at += prefix.length;
      }
      const inner = alternation();
      at++; // ')'
      return lookaround ? '' : inner;
    }
    return char;
  }

  function escaped(): string {
    const char = pattern[at++]!;
    if (char === 'u' && peek() === '{') {
      const end = pattern.indexOf('}', at);
      const code = pattern.slice(at + 1, end);
      at = end + 1;
      return String.fromCodePoint(parseInt(code, 16));
    }
    return ESCAPES[char] ?? char;
  }

  function charClass(): string {
    const negated = peek() === '^';
    if (negated) at++;
    const members: string[] = [];
    while (at < pattern.length && peek() !== ']') {
      let char = pattern[at++]!;
      if (char === '\\') char = escaped() || 'a';
      if (peek() === '-' && pattern[at + 1] !== ']' && pattern[at + 1] !== undefined)
        at += 2 + (pattern[at + 1] === '\\' ? 1 : 0);
      members.push(char);
    }
    at++; // ']'
    if (!negated) return members[0] ?? 'a';
    return ['a', 'Z', '0', '_', '-', ' '].find((candidate) => !members.includes(candidate)) ?? 'a';
  }

  try {
    const text = alternation();
    return new RegExp(pattern, 'u').test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}
