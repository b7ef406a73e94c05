import { STANDARD_KEYWORDS, type DialectRules } from './dialect-rules.ts';

/**
 * Standard JSON Schema, as normalized: what local models and the text protocol are shown, and what
 * Anthropic takes as `input_schema`.
 */
export const JSON_DIALECT: DialectRules = {
  compile: (root) => root,
  encoding: () => 'plain',
  nullMeansOmitted: false,
  check: { keywords: STANDARD_KEYWORDS },
};
