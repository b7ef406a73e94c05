import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { formatDiagnostic } from '../core/diagnostic.ts';
import { errorLocation, errorMessage } from './error-location.ts';

describe('formatDiagnostic', () => {
  test('file:line:column relative to cwd, severity, code, tool, message and hint', () => {
    const text = formatDiagnostic(
      {
        severity: 'error',
        code: 'syntax-error',
        file: '/work/proj/agent/tools/x.ts',
        line: 12,
        column: 5,
        tool: 'x',
        message: 'bad',
        hint: 'fix it',
      },
      '/work/proj',
    );
    assert.equal(text, 'agent/tools/x.ts:12:5: error [syntax-error] x: bad\n  → fix it');
  });

  test('without line, tool or hint', () => {
    assert.equal(
      formatDiagnostic({ severity: 'warning', code: 'folder-missing', file: '/a/b', message: 'gone' }, '/a'),
      'b: warning [folder-missing] gone',
    );
    assert.equal(
      formatDiagnostic({ severity: 'warning', code: 'folder-missing', file: '/a', message: 'gone' }, '/a'),
      '/a: warning [folder-missing] gone',
    );
  });
});

describe('errorLocation', () => {
  const file = '/tmp/tools/weather.ts';

  test("the transformer's startLine (and 0-based startColumn)", () => {
    assert.deepEqual(errorLocation({ startLine: 3, startColumn: 9 }, file), { line: 3, column: 10 });
    assert.deepEqual(errorLocation({ startLine: 3 }, file), { line: 3 });
  });

  test('the first stack frame in the file, as a URL with a query or as a path', () => {
    const url = `${pathToFileURL(file).href}?v=3`;
    const stack = `Error: x\n    at other (/tmp/tools/_helper.ts:1:1)\n    at Weather.execute (${url}:14:7)\n    at again (${file}:20:1)`;
    assert.deepEqual(errorLocation({ stack }, file), { line: 14, column: 7 });
    assert.deepEqual(errorLocation({ stack: `Error\n    at ${file}:8` }, file), { line: 8 });
  });

  test('nothing when the file is not in the stack, or there is no error object', () => {
    assert.deepEqual(errorLocation({ stack: 'Error\n    at /elsewhere.ts:1:1' }, file), {});
    assert.deepEqual(errorLocation('text', file), {});
    assert.deepEqual(errorLocation(null, file), {});
  });
});

describe('errorMessage', () => {
  test('message, name, message-like object, anything else', () => {
    assert.equal(errorMessage(new Error('boom')), 'boom');
    assert.equal(errorMessage(new TypeError()), 'TypeError');
    assert.equal(errorMessage({ message: 'like an error' }), 'like an error');
    assert.equal(errorMessage('text'), 'text');
    assert.equal(errorMessage(42), '42');
  });
});
