import { clientToolClashes, clientToolSet, type ClientToolSet } from './client-tools.ts';
import { finishTurn } from './finish-turn.ts';
import { OfferedTools } from './offered-tools.ts';
import type { TurnOptions } from './turn-options.ts';
import type { TurnResult } from './turn-events.ts';
import type { TurnState } from './turn-state.ts';
import { TurnTools } from './turn-tools.ts';

/**
 * The turn's first step: the tools it offers (the whole catalog, or those routed for the
 * conversation) and the caller's beside them, or the turn's end when the caller's cannot be offered
 * (a name of ours, no native tool calling, a schema that does not compile).
 */
export async function prepareTools(turn: TurnState): Promise<TurnTools | TurnResult> {
  const { options, text } = turn;
  const { registry } = options;
  const query = conversationQuery(options);
  const offered = await OfferedTools.choose(registry, options.language, options.routing, query, turn.signal);
  options.tracer?.routing(offered.names(), offered.routed, () => offered.names());
  const clientTools = options.clientTools ?? [];
  if (clientTools.length === 0) return new TurnTools(offered, turn.dialect(), undefined);
  // Ours are the registry's tools and what the turn offers besides (find_tools, when it routes).
  const offeredNames = new Set(offered.definitions(turn.dialect()).map((definition) => definition.name));
  const clashes = clientToolClashes(clientTools, (name) => registry.get(name) !== undefined || offeredNames.has(name));
  if (clashes.length > 0) {
    return finishTurn(turn, 'error', text.clientToolClash(clashes), {
      code: 'tool-name-clash',
      message: clashMessage(clashes),
    });
  }
  if (turn.mode === 'text') return refuseClientTools(turn);
  let client: ClientToolSet;
  try {
    client = clientToolSet(clientTools, turn.dialect());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return finishTurn(turn, 'error', text.invalidClientTool(message), { code: 'invalid-client-tool', message });
  }
  return new TurnTools(offered, turn.dialect(), client);
}

/** The caller's tools need native tool calling, which this turn does not have (or no longer has). */
export function refuseClientTools(turn: TurnState): TurnResult {
  const message = `${turn.model.id} is used without native tool calling, which the client's tools need`;
  return finishTurn(turn, 'error', turn.text.clientToolsNeedNative, { code: 'client-tools-unsupported', message });
}

/** What the tools are chosen for: the user's latest message, and the ones before it. */
function conversationQuery(options: TurnOptions): { latest: string; earlier: string[] } {
  const users = options.history.filter((message) => message.role === 'user').map((message) => message.content);
  if (options.input !== undefined) return { latest: options.input, earlier: users };
  return { latest: users.at(-1) ?? '', earlier: users.slice(0, -1) };
}

function clashMessage(names: readonly string[]): string {
  const list = names.map((name) => `"${name}"`).join(', ');
  return `the client's tool${names.length === 1 ? '' : 's'} ${list} ${names.length === 1 ? 'has the name' : 'have the names'} of Riverse's own; rename ${names.length === 1 ? 'it' : 'them'} in the request, or switch Riverse's off (tools.<name>.enabled: false in riverse.yaml)`;
}
