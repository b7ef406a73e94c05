import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RouteDoc } from './route-doc.ts';
import { nameParts, ToolIndex } from './tool-index.ts';
import { queryTerms } from './route-terms.ts';

const doc = (name: string, description: string, parameters: string[] = [], examples: string[] = []): RouteDoc => ({
  name,
  description: [description],
  parameters,
  examples,
});

const CATALOG: RouteDoc[] = [
  doc(
    'get_weather',
    'Current weather and forecast for a city',
    ['city', 'The city name'],
    ['Will it rain in Paris tomorrow?'],
  ),
  doc('send_email', 'Send an email message to a recipient', ['to', 'Address of the recipient', 'subject', 'body']),
  doc(
    'book_flight',
    'Book a flight ticket between two airports',
    ['from', 'to', 'date'],
    ['Fly me from Tokyo to Osaka on Friday'],
  ),
  doc('calculate_area', 'Area of a triangle from its base and height', ['base', 'height']),
  doc('queryViolation', '查询车辆违章记录', ['plate_number', '车牌号'], ['查一下我的车有没有违章']),
];

const top = (index: ToolIndex, query: string, k = 3) => index.search(query, k).map((hit) => hit.name);

describe('ToolIndex', () => {
  test('ranks the tool whose name, description, parameters or examples the request speaks of first', () => {
    const index = new ToolIndex(CATALOG);
    assert.equal(top(index, "what's the forecast in Berlin")[0], 'get_weather');
    assert.equal(top(index, 'email my boss the report')[0], 'send_email');
    assert.equal(top(index, 'how big is a triangle with base 3 and height 4')[0], 'calculate_area');
    // Through an example only: nothing of "fly" is in the description.
    assert.equal(top(index, 'I want to fly to Sapporo')[0], 'book_flight');
  });

  test('finds tools across languages: Chinese and Japanese requests, English and Chinese descriptions', () => {
    const index = new ToolIndex(CATALOG);
    assert.equal(top(index, '帮我查一下违章')[0], 'queryViolation');
    assert.equal(top(index, '明日の東京の天気を教えて')[0], 'get_weather');
    assert.equal(top(index, 'メールを送ってください')[0], 'send_email');
    assert.equal(top(index, '三角形の面積を計算して')[0], 'calculate_area');
  });

  test('a request that shares no word with any tool finds nothing, rather than anything', () => {
    assert.deepEqual(top(new ToolIndex(CATALOG), 'zzyzx qwrtp'), []);
    assert.deepEqual(top(new ToolIndex([]), 'weather'), []);
  });

  test('equal scores are ordered by name, whatever order the tools were added in', () => {
    const twins = [
      doc('b_tool', 'convert currency'),
      doc('a_tool', 'convert currency'),
      doc('c_tool', 'convert currency'),
    ];
    assert.deepEqual(top(new ToolIndex(twins), 'convert currency'), ['a_tool', 'b_tool', 'c_tool']);
    assert.deepEqual(top(new ToolIndex([...twins].reverse()), 'convert currency'), ['a_tool', 'b_tool', 'c_tool']);
    assert.deepEqual(top(new ToolIndex(twins), 'convert currency', 2), ['a_tool', 'b_tool']);
  });

  test('a tool added, changed or removed is found as its new self at once, and its old words no longer find it', () => {
    const index = new ToolIndex(CATALOG);
    index.set(doc('translate_text', 'Translate text into another language', ['text', 'target language']));
    assert.equal(top(index, 'translate this into French')[0], 'translate_text');
    assert.equal(index.size, CATALOG.length + 1);

    index.set(doc('translate_text', 'Look up the definition of a word in the dictionary', ['word']));
    assert.equal(index.size, CATALOG.length + 1);
    assert.ok(!top(index, 'another').includes('translate_text'));
    assert.equal(top(index, 'definition of serendipity')[0], 'translate_text');

    // Its examples change with it: the old example's words find it no more.
    index.set(doc('book_flight', 'Book a flight ticket between two airports', ['from', 'to', 'date']));
    assert.ok(!top(index, 'Sapporo Friday Osaka').includes('book_flight'));

    assert.equal(index.delete('get_weather'), true);
    assert.equal(index.delete('get_weather'), false);
    assert.ok(!top(index, 'weather forecast for a city', 10).includes('get_weather'));
    assert.equal(index.has('get_weather'), false);
  });

  test('after many changes it ranks as an index built afresh from the same tools', () => {
    const index = new ToolIndex(CATALOG);
    for (let round = 0; round < 50; round++) {
      index.set(
        doc(`filler_${round}`, `filler tool number ${round} about gardening`, ['plant'], [`water my plants ${round}`]),
      );
      if (round % 3 === 0) index.delete(`filler_${round}`);
    }
    for (let round = 0; round < 50; round++) index.delete(`filler_${round}`);
    const fresh = new ToolIndex(CATALOG);
    for (const query of ['forecast in Rome', 'send a message', 'flight to Osaka', '违章', 'area of a triangle']) {
      assert.deepEqual(top(index, query, 5), top(fresh, query, 5), query);
    }
    assert.deepEqual(index.names().sort(), CATALOG.map((tool) => tool.name).sort());
  });

  test('a dotted name is split into its namespace and its last part, and camelCase and snake_case into words', () => {
    assert.deepEqual(nameParts('Travel.HotelServices.bookHotel'), {
      namespace: 'Travel.HotelServices',
      last: 'bookHotel',
    });
    assert.deepEqual(nameParts('send_email'), { namespace: '', last: 'send_email' });
    const catalog = [doc('Travel.HotelServices.bookHotel', 'Reserve a room'), doc('get_weather', 'Forecast')];
    assert.equal(top(new ToolIndex(catalog), 'book a hotel')[0], 'Travel.HotelServices.bookHotel');
    const withNamespace = new ToolIndex(catalog, { weights: [1, 3, 1.5, 0.6, 0.6, 1] });
    assert.equal(top(withNamespace, 'services')[0], 'Travel.HotelServices.bookHotel', 'the namespace is a field too');
  });

  test('each field is scored apart: the raw scores tell which field a word was found in', () => {
    const index = new ToolIndex([
      {
        name: 'Shop.Cart.addItem',
        description: ['Put a product in the basket'],
        parameters: ['how many'],
        parameterNames: ['quantity'],
        examples: ['buy two apples'],
      },
      doc('other_tool', 'Nothing alike'),
    ]);
    const stride = 7;
    const out = new Float64Array(2 * stride);
    const seen = new Uint8Array(2);
    const touched: number[] = [];
    index.addFieldScores(
      queryTerms('cart item product quantity many apples'),
      out,
      { stride, offset: 0, fieldStride: 1 },
      seen,
      touched,
    );
    assert.deepEqual(touched, [0]);
    // namespace (cart), name (item), description (product), parameter names (quantity), parameter texts (many), examples (apples)
    for (let field = 0; field < 6; field++) assert.ok(out[field]! > 0, `field ${field}`);
    assert.equal(out[6], 0, 'nothing written past the fields');
    assert.ok(index.bestExampleScores(queryTerms('apples')).get(0)! > 0);
  });

  test('with a sibling weight, a request near one tool of a namespace lifts the others of it, by that share of its score', () => {
    const catalog = [
      doc('Mail.Inbox.sendMail', 'Send an email'),
      doc('Mail.Inbox.archiveThread', 'Move a conversation away'),
      doc('Notes.Pad.archiveNote', 'Archive a note about an email'),
    ];
    const plain = new ToolIndex(catalog, { siblingWeight: 0 });
    const lifted = new ToolIndex(catalog, { siblingWeight: 0.5 });
    assert.ok(!top(plain, 'send').includes('Mail.Inbox.archiveThread'), 'nothing of "send" in archiveThread');
    const hits = lifted.search('send', 3);
    const send = hits.find((hit) => hit.name === 'Mail.Inbox.sendMail')!;
    const sibling = hits.find((hit) => hit.name === 'Mail.Inbox.archiveThread')!;
    assert.ok(Math.abs(sibling.score - 0.5 * plain.search('send', 1)[0]!.score) < 1e-9, 'half the best sibling');
    assert.ok(send.score > sibling.score);
    // A tool without a namespace has no siblings.
    assert.ok(lifted.search('note', 3).every((hit) => hit.name !== 'Mail.Inbox.sendMail'));
  });

  test('feedback adds the telling words of the first pass’s best tools that the request did not say', () => {
    const index = new ToolIndex(CATALOG);
    const words = index.feedbackTerms(queryTerms('forecast'));
    assert.ok(!words.has('forecast'), 'not a word the request said');
    assert.ok(words.has('citi') || words.has('weather'), `${[...words.keys()]}`);
    assert.equal(Math.max(...words.values()), 1);
    // With a weight, a tool reached only through those words comes in; without, it does not.
    const catalog = [...CATALOG, doc('city_guide', 'Sights of a city')];
    assert.ok(!top(new ToolIndex(catalog), 'forecast', 5).includes('city_guide'));
    assert.ok(top(new ToolIndex(catalog, { feedbackWeight: 0.5 }), 'forecast', 5).includes('city_guide'));
  });
});
