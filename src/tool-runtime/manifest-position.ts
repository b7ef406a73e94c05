/**
 * Where in a tool file's own source a manifest property is written: the `type` key of
 * `parameters.city.type` inside the object literal `manifest()` returns, as a 1-based line and
 * column. Read from the file as its author wrote it (TypeScript and all), so no source map stands
 * between the position and the text. It only answers when it is sure: a manifest built elsewhere
 * (a variable, a spread, a helper), several candidates, or a file it cannot follow give no position,
 * since a wrong line misleads more than none.
 */
export function manifestPosition(
  source: string,
  /** The tool's manifest name, or the name of its class. */
  tool: string,
  path: string,
): { line: number; column: number } | undefined {
  let tokens: Token[];
  try {
    tokens = tokenize(source);
  } catch {
    return undefined;
  }
  const literal = manifestLiteral(tokens, tool);
  if (literal === undefined) return undefined;
  const at = path === '' ? literal : propertyAt(tokens, literal, path.split('.'));
  return at === undefined ? undefined : lineAndColumn(source, tokens[at]!.start);
}

interface Token {
  kind: 'word' | 'string' | 'number' | 'punct' | 'template' | 'regex';
  text: string;
  start: number;
  /** For `{`, `[`, `(`: the index of the matching closer. */
  close?: number;
}

const REGEX_AFTER_WORDS = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
]);

/** Words, strings, numbers and punctuation, without comments; brackets paired. Throws on what it cannot read. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const open: number[] = [];
  let at = 0;
  const regexAllowed = () => {
    const last = tokens.at(-1);
    if (last === undefined) return true;
    if (last.kind === 'word') return REGEX_AFTER_WORDS.has(last.text);
    return last.kind === 'punct' && !/^[)\]}]$/.test(last.text);
  };
  while (at < source.length) {
    const char = source[at]!;
    if (/\s/.test(char)) {
      at++;
    } else if (source.startsWith('//', at)) {
      const end = source.indexOf('\n', at);
      at = end < 0 ? source.length : end;
    } else if (source.startsWith('/*', at)) {
      const end = source.indexOf('*/', at + 2);
      if (end < 0) throw new Error('unclosed comment');
      at = end + 2;
    } else if (char === '"' || char === "'") {
      const start = at++;
      while (source[at] !== char) {
        if (at >= source.length || source[at] === '\n') throw new Error('unclosed string');
        at += source[at] === '\\' ? 2 : 1;
      }
      at++;
      tokens.push({ kind: 'string', text: source.slice(start, at), start });
    } else if (char === '`') {
      // A template's ${…} parts are skipped whole: nothing of a manifest's shape is looked for in them.
      const start = at;
      at = templateEnd(source, at);
      tokens.push({ kind: 'template', text: source.slice(start, at), start });
    } else if (char === '/' && regexAllowed()) {
      const start = at++;
      let inClass = false;
      while (inClass || source[at] !== '/') {
        if (at >= source.length || source[at] === '\n') throw new Error('unclosed regular expression');
        if (source[at] === '\\') at++;
        else if (source[at] === '[') inClass = true;
        else if (source[at] === ']') inClass = false;
        at++;
      }
      at++;
      while (/[a-z]/i.test(source[at] ?? '')) at++;
      tokens.push({ kind: 'regex', text: source.slice(start, at), start });
    } else if (/[\p{ID_Start}$_#@]/u.test(char)) {
      const start = at++;
      while (/[\p{ID_Continue}$\u200c\u200d]/u.test(source[at] ?? '')) at++;
      tokens.push({ kind: 'word', text: source.slice(start, at), start });
    } else if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(source[at + 1] ?? ''))) {
      const start = at++;
      while (/[\w.]/.test(source[at] ?? '')) at++;
      tokens.push({ kind: 'number', text: source.slice(start, at), start });
    } else {
      const three = source.slice(at, at + 3);
      const text =
        three === '...' ? three : /^(=>|\?\.)/.test(source.slice(at, at + 2)) ? source.slice(at, at + 2) : char;
      tokens.push({ kind: 'punct', text, start: at });
      if ('{[('.includes(text)) open.push(tokens.length - 1);
      else if ('}])'.includes(text)) {
        const opener = open.pop();
        if (opener === undefined || '{[('.indexOf(tokens[opener]!.text) !== '}])'.indexOf(text))
          throw new Error('unbalanced brackets');
        tokens[opener]!.close = tokens.length - 1;
      }
      at += text.length;
    }
  }
  if (open.length > 0) throw new Error('unbalanced brackets');
  return tokens;
}

/** Just past the template literal that starts at `at`, its ${…} parts (strings, templates, braces) and all. */
function templateEnd(source: string, at: number): number {
  at++;
  while (source[at] !== '`') {
    if (at >= source.length) throw new Error('unclosed template');
    if (source[at] === '\\') at += 2;
    else if (source.startsWith('${', at)) at = expressionEnd(source, at + 2);
    else at++;
  }
  return at + 1;
}

/** Just past the `}` that closes a template's ${ expression starting at `at`. */
function expressionEnd(source: string, at: number): number {
  let depth = 0;
  while (at < source.length) {
    const char = source[at]!;
    if (char === '`') at = templateEnd(source, at);
    else if (char === '"' || char === "'") {
      at++;
      while (source[at] !== char) {
        if (at >= source.length || source[at] === '\n') throw new Error('unclosed string');
        at += source[at] === '\\' ? 2 : 1;
      }
      at++;
    } else if (char === '{') depth++, at++;
    else if (char === '}') {
      if (depth === 0) return at + 1;
      depth--;
      at++;
    } else at++;
  }
  throw new Error('unclosed template');
}

/**
 * The `{` of the object literal a `manifest()` method returns, for `tool` (its manifest name, or
 * its class's name): the only one in the file, or the only one that names it.
 */
function manifestLiteral(tokens: Token[], tool: string): number | undefined {
  const found: Array<{ literal: number; className: string | undefined }> = [];
  let className: string | undefined;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind === 'word' && token.text === 'class' && tokens[index + 1]?.kind === 'word')
      className = tokens[index + 1]!.text;
    if (token.kind !== 'word' || token.text !== 'manifest' || tokens[index + 1]?.text !== '(') continue;
    // A method written here, not a call (`this.manifest()`, `tool.manifest()`).
    if (tokens[index - 1]?.text === '.' || tokens[index - 1]?.text === '?.') continue;
    const closeParen = tokens[index + 1]!.close!;
    let body = closeParen + 1;
    if (tokens[body]?.text === ':') while (body < tokens.length && tokens[body]!.text !== '{') body++;
    if (tokens[body]?.text !== '{') continue;
    const returns = returnedLiterals(tokens, body);
    // One manifest per method: several returns (a manifest per case) leave it unknown.
    found.push({ literal: returns.length === 1 ? returns[0]! : -1, className });
  }
  if (found.length === 0) return undefined;
  // Only a literal that is surely this tool's: in its class, or naming it. Another class's manifest()
  // in the same file is not, when the tool's own comes from a base class elsewhere.
  const named = (literal: number) => (literal < 0 ? undefined : nameOf(tokens, literal));
  const chosen = found.filter(({ literal, className }) => className === tool || named(literal) === tool);
  return chosen.length === 1 && chosen[0]!.literal >= 0 ? chosen[0]!.literal : undefined;
}

/**
 * The `{` of each `return { … }` (or `return ({ … })`) in the body, the literal skipped whole (a
 * getter in it returns its own value). A return of anything else, or one in a nested function,
 * counts too: then which return made the manifest is not known, and none is given.
 */
function returnedLiterals(tokens: Token[], body: number): number[] {
  const literals: number[] = [];
  const end = tokens[body]!.close!;
  let others = 0;
  for (let index = body + 1; index < end; index++) {
    const token = tokens[index]!;
    if (token.kind !== 'word' || token.text !== 'return') continue;
    let value = index + 1;
    while (tokens[value]?.text === '(') value++;
    if (tokens[value]?.text !== '{') {
      others++;
      continue;
    }
    literals.push(value);
    index = tokens[value]!.close!;
  }
  return others === 0 ? literals : [];
}

/** The literal's `name: '…'` string, if written so. */
function nameOf(tokens: Token[], literal: number): string | undefined {
  const key = properties(tokens, literal)?.get('name');
  const value = key === undefined ? undefined : tokens[key + 2];
  return value?.kind === 'string' ? value.text.slice(1, -1) : undefined;
}

/**
 * The key token of each property of an object literal, by name; undefined when a spread or a
 * computed key could hold any name. A name may hold dots (`parameters['a.b']`).
 */
function properties(tokens: Token[], open: number): Map<string, number> | undefined {
  const keys = new Map<string, number>();
  const end = tokens[open]!.close!;
  let index = open + 1;
  while (index < end) {
    if (tokens[index]!.text === '...' || tokens[index]!.text === '[') return undefined;
    // `get description() {…}`, `async run() {…}`: the name follows the modifier.
    const first = tokens[index]!;
    if (
      first.kind === 'word' &&
      /^(get|set|async|static)$/.test(first.text) &&
      /^(word|string|number)$/.test(tokens[index + 1]?.kind ?? '')
    )
      index++;
    const key = tokens[index]!;
    if (key.text === '*' || key.text === '[') return undefined;
    const name =
      key.kind === 'string'
        ? key.text.slice(1, -1)
        : key.kind === 'word' || key.kind === 'number'
          ? key.text
          : undefined;
    if (name === undefined) return undefined;
    keys.set(name, index);
    // On to the next property: past this one's value, at this literal's own level.
    while (index < end && tokens[index]!.text !== ',') index = (tokens[index]!.close ?? index) + 1;
    index++;
  }
  return keys;
}

/** The key token of `path` inside the literal at `open`; the literal's `{` for a property it lacks. */
function propertyAt(tokens: Token[], open: number, path: string[]): number | undefined {
  if (tokens[open]!.text === '[') return elementAt(tokens, open, path);
  const keys = properties(tokens, open);
  if (keys === undefined) return undefined;
  // The longest run of segments that is one key first: a parameter may be named `a.b`.
  for (let length = path.length; length > 0; length--) {
    const key = keys.get(path.slice(0, length).join('.'));
    if (key === undefined) continue;
    if (length === path.length) return key;
    const value = tokens[key + 1]?.text === ':' ? key + 2 : undefined;
    if (value !== undefined && (tokens[value]!.text === '{' || tokens[value]!.text === '['))
      return propertyAt(tokens, value, path.slice(length));
    return undefined;
  }
  // Not written at all (a required field left out): where it would go.
  return path.length === 1 ? open : undefined;
}

/** The first token of element `path[0]` of an array literal, and on into it. */
function elementAt(tokens: Token[], open: number, path: string[]): number | undefined {
  const wanted = Number(path[0]);
  if (!Number.isInteger(wanted) || wanted < 0) return undefined;
  const end = tokens[open]!.close!;
  let index = open + 1;
  for (let element = 0; index < end; element++) {
    if (tokens[index]!.text === '...') return undefined;
    if (element === wanted) {
      if (path.length === 1) return index;
      return tokens[index]!.text === '{' || tokens[index]!.text === '['
        ? propertyAt(tokens, index, path.slice(1))
        : undefined;
    }
    while (index < end && tokens[index]!.text !== ',') index = (tokens[index]!.close ?? index) + 1;
    index++;
  }
  return undefined;
}

function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
