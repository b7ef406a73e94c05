// Templates of declarative tools: `{name}` is a parameter, `{config.key}` a setting of the tool's
// own section, `{{` and `}}` literal braces. A value is always put in as data for the place it
// goes: URL-encoded in a URL, one argv element in a command, a JSON value in a JSON body, so no
// value can end the place it was put in and start another.

export type Piece = { text: string } | { param: string } | { setting: string };

/** The pieces of a template, or what is wrong with it. */
export function parseTemplate(template: string): Piece[] | string {
  const pieces: Piece[] = [];
  let text = '';
  for (let index = 0; index < template.length; index++) {
    const char = template[index]!;
    if ((char === '{' || char === '}') && template[index + 1] === char) {
      text += char;
      index++;
      continue;
    }
    if (char === '}') return `a lone "}" at ${index + 1}; write "}}" for a literal brace`;
    if (char !== '{') {
      text += char;
      continue;
    }
    const end = template.indexOf('}', index);
    if (end === -1) return `"{" at ${index + 1} is not closed; write "{{" for a literal brace`;
    const name = template.slice(index + 1, end).trim();
    if (!/^[a-zA-Z0-9_.-]{1,64}$/.test(name))
      return `{${name}} is not a placeholder: a parameter name, or config.<setting>`;
    if (text !== '') pieces.push({ text });
    text = '';
    pieces.push(name.startsWith('config.') ? { setting: name.slice('config.'.length) } : { param: name });
    index = end;
  }
  if (text !== '') pieces.push({ text });
  return pieces;
}

/** The single placeholder a template is made of, if it is nothing else (`"{city}"`). */
export function wholePlaceholder(pieces: readonly Piece[]): Exclude<Piece, { text: string }> | undefined {
  return pieces.length === 1 && !('text' in pieces[0]!) ? (pieces[0] as Exclude<Piece, { text: string }>) : undefined;
}

/** Where a value comes from when a template is filled in. */
export interface Values {
  params: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** Names the tool's section in messages: `tools.my_tool`. */
  section: string;
}

/** A missing setting: the call cannot be made until it is set. */
export class MissingSetting extends Error {
  override name = 'MissingSetting';
  /** The setting to write, as a path: `tools.keyed.api_key`. */
  readonly setting: string;
  constructor(setting: string) {
    super(`set ${setting} in riverse.yaml`);
    this.setting = setting;
  }
}

/** The value a placeholder stands for; undefined for a parameter the call left out. */
export function pieceValue(piece: Exclude<Piece, { text: string }>, values: Values): unknown {
  if ('param' in piece) return values.params[piece.param];
  const value = values.settings[piece.setting];
  if (value === undefined || value === null || value === '')
    throw new MissingSetting(`${values.section}.${piece.setting}`);
  return value;
}

/** As text: a string as it is, anything else as JSON; a parameter left out is empty. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Fills a template in, each value through `encode`. */
export function fill(
  pieces: readonly Piece[],
  values: Values,
  encode: (text: string) => string = (text) => text,
): string {
  return pieces.map((piece) => ('text' in piece ? piece.text : encode(asText(pieceValue(piece, values))))).join('');
}

/** The parameters a template names. */
export function paramsOf(pieces: readonly Piece[]): string[] {
  return pieces.flatMap((piece) => ('param' in piece ? [piece.param] : []));
}
