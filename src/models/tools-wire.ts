import type { Dialect } from '../schema/dialect.ts';
import type { ToolDefinition } from './chat-model.ts';

/**
 * How one provider's API is given tools: the schema dialect the parameters are compiled to (by the
 * caller, once: the schema shown is the schema the arguments are checked against), and the text
 * each definition becomes in the request. The adapter splices `toolsJson` into its body, and
 * `riverse tools show --dialect` prints `toolText`, so what is printed is what is sent.
 */
export interface ToolsWire {
  readonly dialect: Dialect;
  /** `json` for an HTTP API's tools field; `text` for a prompt that lists the tools. */
  readonly format: 'json' | 'text';
  /** One tool as the request carries it. */
  toolText(tool: ToolDefinition): string;
  /** Every tool as the request carries them, built once per array object. */
  toolsText(tools: readonly ToolDefinition[]): string;
  /** The same as UTF-8 bytes, made once per array object: spliced into a body with no copy (`RequestBody`). */
  toolsBytes(tools: readonly ToolDefinition[]): Uint8Array;
}

/**
 * A wire that writes each tool with `toolText` and joins them into `wrap`. A catalog of 200 tools
 * is about 66 KB sent with every request: it is built once per tools array (by identity), so a
 * request costs the messages, not the catalog.
 */
export function toolsWire(
  dialect: Dialect,
  toolText: (tool: ToolDefinition) => string,
  format: ToolsWire['format'] = 'json',
  wrap = (items: string[]) => `[${items.join(',')}]`,
): ToolsWire {
  const cache = new WeakMap<readonly ToolDefinition[], string>();
  const bytes = new WeakMap<readonly ToolDefinition[], Uint8Array>();
  const toolsText = (tools: readonly ToolDefinition[]) => {
    let text = cache.get(tools);
    if (text === undefined) cache.set(tools, (text = wrap(tools.map(toolText))));
    return text;
  };
  return {
    dialect,
    format,
    toolText,
    toolsText,
    toolsBytes(tools) {
      let made = bytes.get(tools);
      if (made === undefined) bytes.set(tools, (made = Buffer.from(toolsText(tools))));
      return made;
    },
  };
}
