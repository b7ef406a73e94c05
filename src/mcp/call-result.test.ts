import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCallToolResult, toToolResult } from './call-result.ts';

test('a result as MCP content: parts as blocks, bytes as base64, a resource typed from its URI, data ahead when no part is text', () => {
  assert.deepEqual(
    toCallToolResult({
      success: true,
      data: 'the report',
      content: [
        { type: 'image', data: new Uint8Array([1, 2, 3]), mimeType: 'image/png' },
        { type: 'resource', uri: 'file:///tmp/report.md', text: '# Report' },
        { type: 'resource', uri: 'test://blob', blob: new Uint8Array([255]) },
      ],
      structured: { pages: 3 },
    }),
    {
      content: [
        { type: 'text', text: 'the report' },
        { type: 'image', data: 'AQID', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///tmp/report.md', mimeType: 'text/markdown', text: '# Report' } },
        { type: 'resource', resource: { uri: 'test://blob', mimeType: 'application/octet-stream', blob: '/w==' } },
      ],
      structuredContent: { pages: 3 },
    },
  );
});

test('structured that is not an object goes out as JSON text, not structuredContent; a failure is isError with its code', () => {
  assert.deepEqual(toCallToolResult({ success: true, data: '', structured: [1, 2] }), {
    content: [{ type: 'text', text: '[1,2]' }],
  });
  assert.deepEqual(toCallToolResult({ success: false, data: '', error: 'no city', code: 'invalid-params' }), {
    content: [{ type: 'text', text: 'no city (invalid-params)' }],
    isError: true,
  });
});

test('MCP content as a result and back: nothing is lost', () => {
  const sent = {
    content: [
      { type: 'text' as const, text: 'a photo' },
      { type: 'image' as const, data: 'AQID', mimeType: 'image/png' },
      { type: 'audio' as const, data: 'BAUG', mimeType: 'audio/wav' },
      { type: 'resource' as const, resource: { uri: 'test://a.txt', mimeType: 'text/plain', text: 'hello' } },
    ],
    structuredContent: { taken: '2026' },
  };
  const result = toToolResult('camera', sent);
  assert.equal(result.data, 'a photo\n[resource <test://a.txt> (text/plain)]\nhello\n{"taken":"2026"}');
  assert.deepEqual(toCallToolResult(result), {
    content: sent.content,
    structuredContent: sent.structuredContent,
  });
});
