import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withToolSwitches } from './tool-switches.ts';

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
});
