import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { switchesToApply, withToolSwitches } from './tool-switches.ts';

describe('withToolSwitches', () => {
  it('puts the stored switches over riverse.yaml, keeping the rest of each section, and never a setting', () => {
    const config = { tools: { isolation: 'none' as const, weather: { enabled: false, units: 'metric' } } };
    const switched = withToolSwitches(
      config,
      new Map([
        ['weather', true],
        ['echo', false],
        ['enabled', false],
      ]),
    );
    assert.deepEqual(switched.tools, {
      isolation: 'none',
      weather: { enabled: true, units: 'metric' },
      echo: { enabled: false },
    });
    assert.deepEqual(config.tools.weather, { enabled: false, units: 'metric' }, "the file's config is not changed");
    assert.equal(withToolSwitches(config, new Map()), config);
  });

  it('finds the stored switches a config does not carry yet, and only those', () => {
    const config = { tools: { isolation: 'none' as const, weather: { enabled: false }, echo: { enabled: true } } };
    const stored = new Map([
      ['weather', true],
      ['echo', true],
      ['shell', false],
      ['isolation', false],
    ]);
    assert.deepEqual(
      [...switchesToApply(config, stored)],
      [
        ['weather', true],
        ['shell', false],
      ],
    );
    assert.deepEqual([...switchesToApply(withToolSwitches(config, stored), stored)], []);
  });
});
