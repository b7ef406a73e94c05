import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'riverse';

const TOOL_FOLDER = fileURLToPath(new URL('.', import.meta.url));

describe('current_time', () => {
  let registry: ToolRegistry;
  before(async () => {
    registry = await ToolRegistry.load({
      folders: [TOOL_FOLDER],
      config: { tools: { current_time: { time_zone: 'Asia/Kolkata' } } },
    });
  });

  test("the time in a given zone, with its offset, in the person's language", async () => {
    const before = Date.now();
    const result = await registry.execute('current_time', { time_zone: 'Asia/Tokyo' }, { language: 'ja' });
    assert.equal(result.success, true, result.error);
    const iso = /\((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\+09:00, Asia\/Tokyo\)$/.exec(result.data);
    assert.ok(iso, result.data);
    assert.match(result.data, /年.*月.*日/);
    // The time shown is now, read in Tokyo.
    const shown = Date.parse(`${iso[1]}+09:00`);
    assert.ok(shown >= Math.floor(before / 1000) * 1000 && shown <= Date.now(), `${iso[1]} is not now`);
  });

  test('no zone: the configured one', async () => {
    assert.match((await registry.execute('current_time', {})).data, /\+05:30, Asia\/Kolkata\)$/);
  });

  test('an unknown zone: a clear error that says how to write one', async () => {
    const result = await registry.execute('current_time', { time_zone: 'Tokyo' });
    assert.equal(result.success, false);
    assert.match(
      result.error ?? '',
      /^Unknown time zone "Tokyo": give an IANA time zone name, Area\/City .*Asia\/Tokyo/,
    );
  });
});
