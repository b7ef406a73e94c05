import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FEATURES, KINDS, learnWeights, recallOf, type LearnedWeights, type LearnQuery } from './learn-weights.ts';

const START: LearnedWeights = {
  fields: [1, 1, 1, 1, 1, 1],
  example: 0.5,
  query: { context: 0.5, translation: 0.7, synonym: 0.4 },
  sibling: 0,
  feedback: 0,
};

/** A request whose candidates score `raw[candidate][field]` in the last line's own words; candidate 0 is gold. */
function request(raw: number[][], namespaces?: number[]): LearnQuery {
  const features = new Float64Array(raw.length * FEATURES);
  for (const [candidate, fields] of raw.entries())
    for (const [field, value] of fields.entries()) features[candidate * FEATURES + field * KINDS] = value;
  return {
    set: 0,
    features,
    namespaces: Int32Array.from(namespaces ?? raw.map(() => -1)),
    gold: [0],
    goldCount: 1,
  };
}

describe('learnWeights', () => {
  test('weighs up the field that finds the gold tools and down the one that finds others', () => {
    // Field 5 (examples) has the gold tool; field 1 (the name) a distractor, ten times over.
    const distractors = Array.from({ length: 10 }, () => [0, 2, 0, 0, 0, 0]);
    const queries = [
      request([[0, 0, 0, 0, 0, 1.5], ...distractors]),
      request([[0, 0.5, 0, 0, 0, 1.5], ...distractors]),
    ];
    assert.deepEqual(recallOf(queries[0]!, START), [0, 0, 0, 0]);
    const learned = learnWeights(queries, 1, START);
    for (const query of queries) assert.equal(recallOf(query, learned)[0], 1);
    assert.ok(learned.fields[5]! > learned.fields[1]!, `${learned.fields}`);
  });

  test('a fixed weight stays where it starts', () => {
    const distractors = Array.from({ length: 10 }, () => [0, 2, 0, 0, 0, 0]);
    const queries = [request([[0, 0, 0, 0, 0, 1.5], ...distractors])];
    const learned = learnWeights(queries, 1, START, { fixed: ['field1', 'field5'] });
    assert.equal(learned.fields[1], 1);
    assert.equal(learned.fields[5], 1);
  });

  test('the sibling weight lifts the tools of the best tool’s namespace by its share of that score', () => {
    // The gold tool (0) scores nothing itself; its sibling (1) is the best; ten others score in between.
    const others = Array.from({ length: 10 }, () => [0, 0, 0.5, 0, 0, 0]);
    const query = request([[0, 0, 0, 0, 0, 0], [0, 0, 4, 0, 0, 0], ...others], [7, 7, ...others.map(() => -1)]);
    assert.equal(recallOf(query, START)[3], 0);
    assert.equal(recallOf(query, { ...START, sibling: 0.2 })[3], 1, '0.2 × 4 beats 0.5');
    assert.equal(recallOf(query, { ...START, sibling: 0.1 })[3], 0, '0.1 × 4 does not');
  });
});
