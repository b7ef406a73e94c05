// The house's rules, checked: which room may import which (the one table of allowed arrows, which
// docs/architecture.md points to), and no import cycle between folders. A reviewer should not have
// to be the one who notices a value import running up the house.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));

/**
 * The rooms of src/, bottom first. A file may import values from its own room and from rooms on a
 * lower floor; a type (`import type`: gone when the code runs) from anywhere, so that a room can name
 * the settings type of the room that reads them.
 */
export const FLOORS: ReadonlyArray<readonly string[]> = [
  ['core'], // languages, phrases, the diagnostic shape: imports nothing of Riverse
  ['schema'], // JSON Schema and each provider's dialect of it
  ['tools'], // the tool contract a tool file sees (src/tool-api.ts re-exports it)
  ['tool-runtime'], // discovery, loaders, isolation, registry, reload
  ['models', 'routing', 'store', 'mcp', 'telemetry'], // siblings: only the arrows in SIDEWAYS between them
  ['tasks'], // tool calls that outlive their turn: run, stored, delivered, cancelled
  ['assistant'], // one turn
  ['config'], // riverse.yaml, and the assistant it describes
  ['server'], // the HTTP API, /v1, the dashboard
  ['cli'], // the riverse command
  ['(package)'], // src/index.ts, src/register.ts and their tests: the public API over all of it
];

/** Arrows between rooms of one floor, each with why. Everything else on a floor is a defect. */
export const SIDEWAYS: Readonly<Record<string, string>> = {
  'store -> models': 'sessions keep chat messages in the models’ own shape (and its jsonText)',
};

/**
 * An end-to-end test (`*.e2e.test.ts`) drives its room through the rooms above it — an adapter in a
 * whole turn, the MCP server behind `riverse serve` — so its imports may run up; any other file's may not.
 */
const isEndToEnd = (file: string) => file.endsWith('.e2e.test.ts');

/** The room of a file: its first folder under src/, or the package entry's or the contract's. */
function roomOf(file: string): string {
  const path = relative(SRC, file).split(sep);
  if (path[0] === '..') return '(outside)';
  if (path.length > 1) return path[0] === 'testing' ? '(package)' : path[0]!;
  return path[0] === 'tool-api.ts' ? 'tools' : '(package)';
}

const floorOf = (room: string): number => {
  const floor = FLOORS.findIndex((rooms) => rooms.includes(room));
  assert.notEqual(floor, -1, `src/${room} is a room the house does not list: add it to FLOORS in src/house.test.ts`);
  return floor;
};

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'static' ? [] : sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// Static imports and re-exports (`import type` and all-`type` lists are type-only), and import().
const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'(\.[^']+)'\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const to = join(dirname(file), specifier);
    // A relative path inside a test's tool source (a string) names no file of the tree: not an import.
    if (existsSync(to)) found.push({ from: file, to, typeOnly });
  };
  for (const match of text.matchAll(STATIC)) {
    if (match[5] !== undefined) add(match[5], false);
    else {
      const names = /^\{([^}]*)\}$/.exec(match[3]!.trim())?.[1];
      const allTypes =
        names
          ?.split(',')
          .filter((name) => name.trim() !== '')
          .every((name) => /^\s*type\s/.test(name)) === true;
      add(match[4]!, match[2] !== undefined || allTypes);
    }
  }
  for (const match of text.matchAll(DYNAMIC)) add(match[1]!, false);
  return found;
}

const IMPORTS = sourceFiles(SRC).flatMap(importsOf);
const show = (edge: Import) => `${relative(SRC, edge.from)} imports ${relative(SRC, edge.to)}`;

describe('the house', () => {
  test('every room of src/ is on a floor', () => {
    for (const entry of readdirSync(SRC, { withFileTypes: true }))
      if (entry.isDirectory()) floorOf(roomOf(join(SRC, entry.name, 'x.ts')));
  });

  test('docs/architecture.md gives every room of src/ a paragraph of its own', () => {
    const map = readFileSync(join(SRC, '..', 'docs', 'architecture.md'), 'utf8');
    const missing = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !map.includes(`**\`src/${entry.name}/\`**`))
      .map((entry) => entry.name);
    assert.deepEqual(missing, [], 'rooms the architecture page does not describe');
  });

  test('values are imported from the same room or a lower floor (or along an arrow of SIDEWAYS)', () => {
    const wrong = IMPORTS.filter((edge) => {
      const from = roomOf(edge.from);
      const to = roomOf(edge.to);
      if (edge.typeOnly || from === to || to === '(outside)' || isEndToEnd(edge.from)) return false;
      const [up, down] = [floorOf(from), floorOf(to)];
      return down > up || (down === up && SIDEWAYS[`${from} -> ${to}`] === undefined);
    });
    assert.deepEqual(wrong.map(show), [], 'value imports that run up the house or sideways without a reason');
  });

  test('src/core imports nothing of Riverse but itself', () => {
    const wrong = IMPORTS.filter((edge) => roomOf(edge.from) === 'core' && roomOf(edge.to) !== 'core');
    assert.deepEqual(wrong.map(show), []);
  });

  test('no folder takes part in an import cycle with another folder', () => {
    // Folders as nodes, value imports of code (not tests) as arrows; a strongly connected set of two
    // or more folders is a cycle. A folder and a folder it is in work as one (a room's own files are
    // its front door and the parts its subfolders share), so arrows between them are left out.
    const code = IMPORTS.filter((edge) => !edge.typeOnly && !/\.test\.ts$/.test(edge.from));
    const arrows = new Map<string, Set<string>>();
    const within = (inner: string, outer: string) => outer === '.' || inner.startsWith(`${outer}${sep}`);
    for (const edge of code) {
      const [from, to] = [relative(SRC, dirname(edge.from)) || '.', relative(SRC, dirname(edge.to)) || '.'];
      if (from !== to && !within(from, to) && !within(to, from))
        arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
    }
    assert.deepEqual(cycles(arrows), []);
  });

  test('the checker sees what it is meant to see', () => {
    // A check of imports that finds none would pass everything.
    const contract = IMPORTS.filter((edge) => edge.from.endsWith(`${sep}tool-api.ts`));
    assert.ok(contract.length >= 5, 'src/tool-api.ts re-exports the contract');
    assert.ok(
      IMPORTS.some((edge) => edge.typeOnly && roomOf(edge.from) === 'config' && roomOf(edge.to) === 'server'),
      'config names the server’s settings type',
    );
  });
});

/** The strongly connected sets of two or more nodes (Tarjan's algorithm), each sorted. */
function cycles(arrows: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of arrows.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const set: string[] = [];
      let member: string;
      do set.push((member = stack.pop()!));
      while (member !== node);
      if (set.length > 1) found.push(set.sort());
    }
  };
  for (const node of arrows.keys()) if (!index.has(node)) visit(node);
  return found;
}
