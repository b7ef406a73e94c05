import { definePhrases } from '../core/phrase.ts';
import { CALL_TEXT } from './call-text.ts';
import { LOAD_TEXT } from './load-text.ts';
import { MANIFEST_TEXT } from './manifest-text.ts';
import { PARAMS_TEXT } from './params-text.ts';

/** The phrases of loading, checking and calling tools: manifests, loads, parameters, calls. */
export const phrase = definePhrases({
  en: { ...MANIFEST_TEXT.en, ...LOAD_TEXT.en, ...PARAMS_TEXT.en, ...CALL_TEXT.en },
  zh: { ...MANIFEST_TEXT.zh, ...LOAD_TEXT.zh, ...PARAMS_TEXT.zh, ...CALL_TEXT.zh },
  ja: { ...MANIFEST_TEXT.ja, ...LOAD_TEXT.ja, ...PARAMS_TEXT.ja, ...CALL_TEXT.ja },
});
