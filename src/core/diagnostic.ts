import { relative } from 'node:path';
import { english, renderPhrase, type Phrase } from './phrase.ts';
import type { Language } from './language.ts';

/** Something wrong (or worth fixing) with a tool file, found while loading it. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  code: DiagnosticCode;
  /** Absolute path of the file (or folder) concerned. */
  file: string;
  line?: number;
  column?: number;
  /** The tool concerned, when known. */
  tool?: string;
  /** What is wrong. */
  message: string;
  /** What to do about it. */
  hint?: string;
  /**
   * The message and hint as phrases, shown in the reader's language (localizeDiagnostic);
   * `message` and `hint` are their English text. Left out where the text is not ours (the compiler's
   * message, a check written without phrases).
   */
  text?: { message?: Phrase; hint?: Phrase };
}

export type DiagnosticCode =
  | 'folder-missing'
  | 'folder-unreadable'
  | 'file-unreadable'
  | 'syntax-error'
  | 'import-failed'
  | 'no-tool-class'
  | 'constructor-threw'
  | 'manifest-threw'
  | 'invalid-manifest'
  | 'manifest-warning'
  | 'is-available-threw'
  | 'duplicate-name'
  | 'load-timeout'
  | 'load-crashed'
  | 'type-error'
  | 'type-check-failed'
  /** `tools check`: importing the file (its top level and what it imports) took long; every start pays it. */
  | 'slow-load'
  | 'unknown-tool-section'
  /** A configured MCP server that is not connected (yet): its tools are missing or unavailable. */
  | 'mcp-server-unavailable';

/** `message`, `hint` and `text` of a diagnostic, from its phrases. */
export function said(message: Phrase, hint?: Phrase): Pick<Diagnostic, 'message' | 'hint' | 'text'> {
  return hint === undefined
    ? { message: english(message), text: { message } }
    : { message: english(message), hint: english(hint), text: { message, hint } };
}

/**
 * The diagnostic as a reader of `language` sees it: message and hint in that language where they
 * are phrases (else as written), without the phrases themselves (for printing and JSON).
 */
export function localizeDiagnostic(diagnostic: Diagnostic, language: Language = 'en'): Diagnostic {
  const { text, ...plain } = diagnostic;
  if (typeof text !== 'object' || text === null || language === 'en') return plain;
  const message = text.message === undefined ? plain.message : (renderPhrase(text.message, language) ?? plain.message);
  const hint = text.hint === undefined ? plain.hint : (renderPhrase(text.hint, language) ?? plain.hint);
  return { ...plain, message, ...(hint === undefined ? {} : { hint }) };
}

const SEVERITY: Record<Language, Record<Diagnostic['severity'], string>> = {
  en: { error: 'error', warning: 'warning' },
  zh: { error: '错误', warning: '警告' },
  ja: { error: 'エラー', warning: '警告' },
};

/** `agent/tools/x.ts:12:5: error [syntax-error] message` and the hint on the next line, in `language`. */
export function formatDiagnostic(diagnostic: Diagnostic, cwd = process.cwd(), language: Language = 'en'): string {
  const shown = localizeDiagnostic(diagnostic, language);
  const file = relative(cwd, shown.file) || shown.file;
  const place =
    shown.line === undefined ? file : `${file}:${shown.line}${shown.column === undefined ? '' : `:${shown.column}`}`;
  const head = `${place}: ${SEVERITY[language][shown.severity]} [${shown.code}]${shown.tool === undefined ? '' : ` ${shown.tool}:`} ${shown.message}`;
  return shown.hint === undefined ? head : `${head}\n  → ${shown.hint}`;
}
