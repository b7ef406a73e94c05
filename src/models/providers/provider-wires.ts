import type { ToolsWire } from '../tools-wire.ts';
import { PROVIDER_WIRE_NAMES, type ProviderWireName } from './provider-wire-names.ts';
import { PROVIDERS } from './providers.ts';

/**
 * How each adapter sends tools, by the name `riverse tools show --dialect` takes: what it prints is
 * what the adapter sends. Each adapter defines its own and each descriptor names its adapter's;
 * this gathers them, in the list's order.
 */
export const PROVIDER_WIRES: Readonly<Record<ProviderWireName, ToolsWire>> = gatherWires();

function gatherWires(): Record<ProviderWireName, ToolsWire> {
  const wires = new Map<ProviderWireName, ToolsWire>();
  for (const provider of PROVIDERS) {
    for (const [name, wire] of Object.entries(provider.wires) as Array<[ProviderWireName, ToolsWire]>) {
      if (!wires.has(name)) wires.set(name, wire);
    }
  }
  // A name the command line offers must have a wire: fail at start, not on `--dialect`.
  const missing = PROVIDER_WIRE_NAMES.filter((name) => !wires.has(name));
  if (missing.length > 0) throw new Error(`no provider sends the wire ${missing.join(', ')} (provider-wire-names.ts)`);
  return Object.fromEntries(wires) as Record<ProviderWireName, ToolsWire>;
}
