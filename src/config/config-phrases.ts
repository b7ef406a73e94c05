import { definePhrases } from '../core/phrase.ts';
import { CONFIG_TEXT } from './config-text.ts';

/** The phrases of riverse.yaml's problems. */
export const phrase = definePhrases(CONFIG_TEXT);
