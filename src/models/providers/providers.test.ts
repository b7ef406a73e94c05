import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PROVIDER_NAMES } from './provider-names.ts';
import { PROVIDER_WIRES } from './provider-wires.ts';
import { PROVIDERS, providerNamed } from './providers.ts';

test("the cheap name list the help reads is the descriptors' names, in order", () => {
  assert.deepEqual(
    [...PROVIDER_NAMES],
    PROVIDERS.map((provider) => provider.name),
  );
});

test('the cheap name list imports nothing, so the help loads no adapter', async () => {
  const source = await readFile(new URL('./provider-names.ts', import.meta.url), 'utf8');
  assert.doesNotMatch(source, /^\s*(import|export .* from)\b/m);
});

test('each prefix is one provider, in lower case as names are matched', () => {
  assert.equal(new Set(PROVIDER_NAMES).size, PROVIDER_NAMES.length);
  for (const name of PROVIDER_NAMES) {
    assert.match(name, /^[a-z][a-z0-9-]*$/);
    assert.equal(providerNamed(name)?.name, name);
  }
  assert.equal(providerNamed('mistral'), undefined);
});

test('a wire name means one wire whichever provider gives it: what --dialect prints is what each sends', () => {
  for (const provider of PROVIDERS) {
    assert.ok(Object.keys(provider.wires).length > 0, `${provider.name} names the wire its adapter sends`);
    for (const [name, wire] of Object.entries(provider.wires)) {
      assert.equal(wire, PROVIDER_WIRES[name as keyof typeof PROVIDER_WIRES], `${provider.name}: ${name}`);
    }
  }
});

test('what a provider needs is stated consistently', () => {
  for (const provider of PROVIDERS) {
    if (provider.discover === 'key')
      assert.ok(provider.keyEnv !== undefined, `${provider.name} is found by a key it names`);
    if (provider.defaultBaseUrl !== undefined) assert.ok(URL.canParse(provider.defaultBaseUrl), provider.name);
    if (provider.keyEnv !== undefined) assert.match(provider.keyEnv, /^[A-Z][A-Z0-9_]*$/);
    if (provider.baseUrlEnv !== undefined) assert.match(provider.baseUrlEnv, /^[A-Z][A-Z0-9_]*$/);
  }
});

test('the README names every provider with its key and base-URL variables', async () => {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const paragraph = /^Providers: [\s\S]*?\n\n/m.exec(readme)?.[0] ?? '';
  for (const provider of PROVIDERS) {
    assert.ok(paragraph.includes(`\`${provider.name}\``), `README's "Providers:" names ${provider.name}`);
    for (const variable of [provider.keyEnv, provider.baseUrlEnv]) {
      if (variable !== undefined)
        assert.ok(paragraph.includes(`\`${variable}\``), `README's "Providers:" names ${variable}`);
    }
  }
});
