import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paramHeaderMismatch } from './param-headers.ts';

const SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    priority: { type: 'integer', 'x-mcp-header': 'Priority' },
    where: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    plain: { type: 'string' },
  },
};
const hello = Buffer.from('Hello, 世界').toString('base64');
const check = (args: unknown, headers: Record<string, string>) =>
  paramHeaderMismatch(SCHEMA, args, new Headers(headers));

test('Mcp-Param headers: each declared value in the body is mirrored, literally or as =?base64?…?=', () => {
  assert.equal(
    check({ region: 'us-west1', priority: 42 }, { 'Mcp-Param-Region': 'us-west1', 'Mcp-Param-Priority': '42' }),
    undefined,
  );
  assert.equal(check({ region: 'Hello, 世界' }, { 'mcp-param-region': `=?base64?${hello}?=` }), undefined);
  assert.equal(check({ priority: 42 }, { 'Mcp-Param-Priority': '42.0' }), undefined, 'numbers compare as numbers');
  // Without the whole wrapper a value is literal.
  assert.equal(check({ region: hello }, { 'Mcp-Param-Region': hello }), undefined);
  assert.equal(check({ region: `=?base64?${hello}` }, { 'Mcp-Param-Region': `=?base64?${hello}` }), undefined);
  // Absent or null in the body: no header is expected; undeclared parameters are not looked at.
  assert.equal(check({ plain: 'x', region: null }, {}), undefined);
  assert.equal(check({ where: { zone: 'a' } }, { 'Mcp-Param-Zone': 'a' }), undefined);
});

test('Mcp-Param headers: a missing header, bad Base64 or another value is refused, naming the header and the field', () => {
  assert.match(
    String(check({ region: 'x' }, {})),
    /the body carries region, and the Mcp-Param-Region header that must mirror it is missing/,
  );
  assert.match(String(check({ region: 'Hello' }, { 'Mcp-Param-Region': '=?base64?SGVsbG8?=' })), /not valid Base64/);
  assert.match(
    String(check({ region: 'Hello' }, { 'Mcp-Param-Region': '=?base64?SGVs!!!bG8=?=' })),
    /not valid Base64/,
  );
  assert.match(
    String(check({ region: 'us-east1' }, { 'Mcp-Param-Region': 'us-west1' })),
    /the Mcp-Param-Region header says "us-west1", and the body's region is "us-east1"/,
  );
  assert.match(String(check({ where: { zone: 'a' } }, { 'Mcp-Param-Zone': 'b' })), /body's where\.zone is "a"/);
});
