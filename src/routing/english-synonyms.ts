import { stem } from './tokenize.ts';

/**
 * Groups of English words that requests and tool descriptions use for one another (a trip is
 * travel, an apartment is a home): generic vocabulary, as the CJK lexicon is. A request's word
 * also looks for the others of its group, at a low weight.
 */
const GROUPS = `
trip travel vacation journey tour holiday getaway itinerary
house home apartment property housing flat residence realestate
job career employment hire hiring recruit vacancy resume
stock invest investment finance financial market trading portfolio
crypto cryptocurrency bitcoin ethereum blockchain token
movie film cinema showtime
music song album artist playlist track
recipe cook cooking dish meal cuisine food ingredient
weather forecast temperature rain climate
health medical doctor symptom disease medicine clinic
law legal lawyer attorney court lawsuit
news headline article journalism
book novel author reading literature
learn study course education lesson tutorial class
shop shopping buy purchase product deal store
car vehicle automobile auto
flight airline airport plane
hotel accommodation lodging stay resort
restaurant dining eat eatery
translate translation language
email mail inbox
calendar schedule event meeting appointment agenda
note memo reminder todo
image photo picture
video clip
code programming developer repository github software
document pdf file
search find lookup discover locate
price cost fee rate
map location place address direction route
write writing essay rewrite paraphrase polish
summary summarize summarise abstract
chart graph plot visualization visualize
game gaming play puzzle
sport sports team match league score
pet dog cat animal
gift present
fitness exercise workout gym
diet nutrition calorie
sleep insomnia rest
weather air pollution
`;

let table: Map<string, string[]> | undefined;

/** Stem → the stems of its groups (itself left out). */
export function synonyms(): ReadonlyMap<string, readonly string[]> {
  if (table !== undefined) return table;
  table = new Map();
  for (const line of GROUPS.trim().split('\n')) {
    const stems = [
      ...new Set(
        line
          .trim()
          .split(/\s+/)
          .map((word) => stem(word)),
      ),
    ];
    for (const one of stems)
      table.set(one, [...new Set([...(table.get(one) ?? []), ...stems.filter((other) => other !== one)])]);
  }
  return table;
}
