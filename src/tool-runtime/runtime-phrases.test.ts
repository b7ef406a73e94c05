import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDiagnostic, localizeDiagnostic, said, type Diagnostic } from '../core/diagnostic.ts';
import { LOAD_TEXT } from './load-text.ts';
import { MANIFEST_TEXT } from './manifest-text.ts';
import { renderPhrase, type Phrase } from '../core/phrase.ts';
import { phrase } from './runtime-phrases.ts';

test('every phrase is written in Chinese and Japanese, not left in English', () => {
  // Any argument reads as "X": enough to render every text of the catalogs.
  const args = new Proxy({}, { get: () => 'X' });
  for (const catalog of [MANIFEST_TEXT, LOAD_TEXT]) {
    for (const [id, english] of Object.entries(catalog.en) as Array<[string, (a: unknown) => string]>) {
      if (id === 'load.at-path' || id === 'params.value') continue; // "path: problem", `string "x"` in every language
      for (const language of ['zh', 'ja'] as const) {
        const text = (catalog[language] as unknown as Record<string, (a: unknown) => string>)[id]!(args);
        assert.notEqual(text, english(args), `${id} (${language})`);
        assert.match(
          text,
          /[\u3040-\u30ff\u4e00-\u9fff]/,
          `${id} (${language}) has no Chinese or Japanese in it: ${text}`,
        );
      }
    }
  }
});

test("a diagnostic made of phrases is English as made, and shown in the reader's language; nested phrases follow", () => {
  const diagnostic: Diagnostic = {
    severity: 'error',
    code: 'invalid-manifest',
    file: '/p/agent/tools/w.ts',
    tool: 'w',
    ...said(
      phrase('load.at-path', {
        path: 'parameters.city.type',
        problem: phrase('manifest.type-invalid', { given: '"strin"', types: 'string, number', near: 'string' }),
      }),
      phrase('load.fix-manifest'),
    ),
  };
  assert.equal(
    diagnostic.message,
    'parameters.city.type: type "strin" is not one of string, number (did you mean "string"?)',
  );
  assert.equal(diagnostic.hint, 'fix the manifest; the tool is not registered until then');
  assert.equal(
    formatDiagnostic(diagnostic, '/p', 'zh'),
    'agent/tools/w.ts: 错误 [invalid-manifest] w: parameters.city.type：type "strin" 不在 string, number 之中（是不是 "string"？）\n  → 请修正清单；修正之前该工具不会被注册',
  );
  assert.match(
    formatDiagnostic(diagnostic, '/p', 'ja'),
    /^agent\/tools\/w\.ts: エラー \[invalid-manifest\] w: parameters\.city\.type：type "strin" は string, number のいずれでもありません（"string" のことですか？）\n {2}→ マニフェストを直してください/,
  );
  assert.equal(
    formatDiagnostic(diagnostic, '/p'),
    `agent/tools/w.ts: error [invalid-manifest] w: ${diagnostic.message}\n  → ${diagnostic.hint}`,
  );
  assert.deepEqual(
    Object.keys(localizeDiagnostic(diagnostic, 'ja')).sort(),
    ['code', 'file', 'hint', 'message', 'severity', 'tool'],
    'printed and JSON: no phrases',
  );
});

test('text that is not ours, and a phrase this copy does not know, stay as written', () => {
  const compiler: Diagnostic = {
    severity: 'error',
    code: 'type-error',
    file: '/p/a.ts',
    message: "Property 'm' does not exist (TS2339)",
    hint: 'fix the types',
    text: { hint: phrase('types.fix') },
  };
  const shown = localizeDiagnostic(compiler, 'zh');
  assert.equal(shown.message, compiler.message);
  assert.match(shown.hint!, /^请修正类型/);
  const unknown = { id: 'load.from-a-newer-version', args: {} } as unknown as Phrase;
  assert.equal(renderPhrase(unknown, 'ja'), undefined);
  assert.equal(localizeDiagnostic({ ...compiler, text: { message: unknown } }, 'ja').message, compiler.message);
});

test('a forged phrase from a loader (a cycle, null, an inherited id) shows the diagnostic as written, and never throws', () => {
  const cyclic: { id: string; args: Record<string, unknown> } = { id: 'load.at-path', args: { path: 'x' } };
  cyclic.args.problem = cyclic;
  const base: Diagnostic = { severity: 'error', code: 'import-failed', file: '/p/a.ts', message: 'as written' };
  for (const text of [
    { message: cyclic },
    null,
    { message: { id: 'constructor' } },
    { message: { id: 'load.threw', args: { error: { id: 'toString' } } } },
  ]) {
    assert.equal(localizeDiagnostic({ ...base, text } as unknown as Diagnostic, 'zh').message, 'as written');
  }
});
