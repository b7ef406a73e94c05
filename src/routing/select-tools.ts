/** A tool as the budget sees it: its name and what its definition costs. */
export interface Priced {
  name: string;
  tokens: number;
}

export interface Budget {
  maxTokens: number;
  maxTools: number;
  /** Offered first, whatever the ranking (those not in the catalog are skipped). */
  pinned: readonly string[];
}

/** True when the whole catalog fits the budget: then it is offered whole, without routing. */
export function fitsWhole(catalog: readonly Priced[], budget: Budget): boolean {
  if (catalog.length > budget.maxTools) return false;
  let tokens = 0;
  for (const tool of catalog) tokens += tool.tokens;
  return tokens <= budget.maxTokens;
}

/**
 * The tools to offer: the pinned ones, then the ranked ones best first, each while it fits the
 * budget (a tool too large for what is left is passed over for smaller ones after it). Returned in
 * catalog order, not rank order, so that the same set is always sent the same way (providers'
 * prompt caches key on the bytes).
 */
export function selectTools(catalog: readonly Priced[], ranked: readonly string[], budget: Budget): string[] {
  const byName = new Map(catalog.map((tool, position) => [tool.name, { tool, position }]));
  const chosen = new Set<string>();
  let tokens = 0;
  for (const name of [...budget.pinned, ...ranked]) {
    if (chosen.size >= budget.maxTools) break;
    const entry = byName.get(name);
    if (entry === undefined || chosen.has(name)) continue;
    // Pinned tools are offered even past the token budget: the person asked for them.
    const pinned = budget.pinned.includes(name);
    if (!pinned && tokens + entry.tool.tokens > budget.maxTokens) continue;
    chosen.add(name);
    tokens += entry.tool.tokens;
  }
  return [...chosen].sort((a, b) => byName.get(a)!.position - byName.get(b)!.position);
}
