import assert from 'node:assert/strict';
import { test } from 'node:test';
import { manifestPosition } from './manifest-position.ts';

const WEATHER = `import { BaseTool, ToolResult, type ToolManifest } from 'riverse';

// manifest() { return { name: 'decoy' } } — a comment is not code
const PATTERN = /[{'"]/g;

export class WeatherTool extends BaseTool {
  manifest(): ToolManifest {
    return {
      name: 'weather',
      description: \`Weather \${'now'} in a city\`,
      parameters: {
        city: { type: 'strin', description: 'the city' },
        'a.b': { type: 'string' },
        units: { type: 'string', enum: ['c', 'f'] },
      },
      examples: ['Weather in Tokyo?', { ask: 'x' }],
      get timeoutMs() { return 5_000; },
    };
  }

  execute() {
    return ToolResult.ok(this.manifest().name);
  }
}
`;

/** Line and column of the first `needle` after the first `after` in the source (1-based). */
function at(source: string, needle: string, after = ''): { line: number; column: number } {
  const offset = source.indexOf(needle, source.indexOf(after));
  const before = source.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

test("a property's key, by its path, in the literal manifest() returns: past comments, strings, templates and regular expressions", () => {
  assert.deepEqual(manifestPosition(WEATHER, 'weather', 'name'), at(WEATHER, 'name:', 'return {\n'));
  assert.deepEqual(manifestPosition(WEATHER, 'weather', 'parameters.city.type'), at(WEATHER, 'type', 'city:'));
  assert.deepEqual(manifestPosition(WEATHER, 'weather', 'parameters.units.enum.1'), at(WEATHER, "'f'"));
  assert.deepEqual(manifestPosition(WEATHER, 'weather', 'examples.1.ask'), at(WEATHER, 'ask:'));
  // A parameter whose name holds a dot.
  assert.deepEqual(manifestPosition(WEATHER, 'weather', 'parameters.a.b.type'), at(WEATHER, 'type', "'a.b'"));
  // The whole manifest, and a field left out: the literal itself, where it would be written.
  assert.deepEqual(manifestPosition(WEATHER, 'weather', ''), at(WEATHER, '{', 'return {\n'));
  assert.deepEqual(manifestPosition(WEATHER, 'weather', 'approval'), at(WEATHER, '{', 'return {\n'));
  // A getter is a property too.
  assert.deepEqual(manifestPosition(WEATHER, 'weather', 'timeoutMs'), at(WEATHER, 'timeoutMs'));
});

test('no position rather than a wrong one', () => {
  // Built elsewhere: a variable, a spread, a helper.
  const variable = `class A { manifest() { const m = { name: 'a' }; return m; } }`;
  // Another class's manifest() in the file, with no name to tell: not the tool's own.
  const helper0 = `class Helper { manifest() { return { description: 'x' }; } }\nexport class Tool extends Base {}`;
  assert.equal(manifestPosition(helper0, 'tool', 'description'), undefined);
  assert.equal(manifestPosition(helper0, 'Tool', 'description'), undefined);
  // Its own class, named by a variable: found by the class.
  const own = `export class Tool extends Base { manifest() { return { name: NAME, description: 'x' }; } }`;
  assert.equal(manifestPosition(own, 'Tool', 'description')?.column, own.indexOf('description') + 1);
  assert.equal(manifestPosition(variable, 'a', 'name'), undefined);
  const spread = `class A { manifest() { return { ...base, name: 'a' }; } }`;
  assert.equal(manifestPosition(spread, 'a', 'description'), undefined);
  const nested = `class A { manifest() { return { name: 'a', parameters: shared }; } }`;
  assert.equal(manifestPosition(nested, 'a', 'parameters.city.type'), undefined);
  assert.equal(manifestPosition(nested, 'a', 'parameters.city'), undefined);
  // Two returns: which one made the manifest is not known here.
  const twice = `class A { manifest() { if (x) return { name: 'a' }; return { name: 'b' }; } }`;
  assert.equal(manifestPosition(twice, 'a', 'name'), undefined);
  const helper = `class A { manifest() { const f = () => { return 1; }; return { name: 'a' }; } }`;
  assert.equal(manifestPosition(helper, 'a', 'name'), undefined);
  // A literal that names another tool.
  const other = `class Base { manifest() { return { name: 'base', description: 'x' }; } }`;
  assert.equal(manifestPosition(other, 'child', 'description'), undefined);
  // A file it cannot follow.
  assert.equal(manifestPosition(`class A { manifest() { return { name: 'a' ; }`, 'a', 'name'), undefined);
  assert.equal(manifestPosition('', 'a', 'name'), undefined);
});

test('of two tools in one file, the one named (by its manifest name or its class)', () => {
  const two = `export class First extends BaseTool {
  manifest() {
    return { name: 'first', description: 'One' };
  }
}
export class Second extends BaseTool {
  manifest() {
    return { name: 'second', description: 'Two' };
  }
}
`;
  assert.deepEqual(manifestPosition(two, 'second', 'description'), at(two, 'description', "'second'"));
  assert.deepEqual(manifestPosition(two, 'First', 'description'), at(two, 'description'));
  assert.equal(manifestPosition(two, 'third', 'description'), undefined);
});
