/**
 * What a dialect cannot express is still worth telling the model: dropped keywords (a default, a
 * range, a format) go into the description as a short parenthesis, e.g. "Volume (default: 50; minimum: 0)".
 */
export function appendHints(description: string | undefined, hints: readonly string[]): string | undefined {
  if (hints.length === 0) return description === '' ? undefined : description;
  const text = `(${hints.join('; ')})`;
  return description === undefined || description === '' ? text : `${description} ${text}`;
}

/** `name: value`, with strings bare (but "" visible) and anything else as JSON; a list comma-separated. */
export function hint(name: string, value: unknown): string {
  return `${name}: ${Array.isArray(value) ? value.map(text).join(', ') : text(value)}`;
}

function text(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : JSON.stringify(value);
}
