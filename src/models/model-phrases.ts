import { definePhrases } from '../core/phrase.ts';
import { MODEL_TEXT } from './model-text.ts';

/** The phrases of resolving and setting up a model. */
export const phrase = definePhrases(MODEL_TEXT);
