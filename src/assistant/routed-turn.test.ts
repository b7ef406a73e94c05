// A turn over a catalog larger than its budget, against the real local OpenAI-protocol server with
// tools loaded from a real file: the tools offered (relevant, pinned, find_tools), the same set in
// every round, find_tools and the rules that follow a tool it found.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { replies } from '../models/testing/wire-server.ts';
import type { RecordedRequest } from '../models/testing/openai-wire.ts';
import { createOpenAIEmbeddings } from '../routing/embeddings/openai-embeddings.ts';
import { SemanticIndex } from '../routing/embeddings/semantic-index.ts';
import { startEmbeddingsTestServer } from '../routing/testing/embeddings-server.ts';
import { ToolRouter } from '../routing/tool-router.ts';
import type { ToolRegistry } from '../tool-runtime/tool-registry.ts';
import { FIND_TOOLS } from './offered-tools.ts';
import { runTurn, type TurnOptions } from './run-turn.ts';
import { loadRegistry, modelServer, sharedCleanup, testModel, toolMessagesOf } from './turn-test-support.ts';
import { TurnTracer } from './turn-tracer.ts';

/** Thirty tools of as many kinds; each answers with its own name and arguments. */
const KINDS: [name: string, description: string, example: string][] = [
  ['get_weather', 'Current weather and forecast for a city', 'Will it rain in Paris tomorrow?'],
  [
    'convert_currency',
    'Convert an amount of money from one currency to another at the current exchange rate',
    'How many yen is 20 dollars?',
  ],
  ['send_email', 'Send an email message to a recipient', 'Email Ann that I am late'],
  ['book_flight', 'Book a flight between two airports', 'Fly me from Tokyo to Osaka on Friday'],
  ['book_hotel', 'Reserve a hotel room in a city for some nights', 'Find me a hotel in Rome for two nights'],
  ['translate_text', 'Translate text into another language', 'Translate good morning into French'],
  ['set_alarm', 'Set an alarm clock for a time', 'Wake me up at 7'],
  ['play_music', 'Play a song, an album or an artist', 'Play some jazz'],
  ['stock_price', 'The latest price of a stock on the market', 'How is Apple stock doing?'],
  ['calculate_area', 'Area of a shape: triangle, circle, rectangle', 'Area of a circle of radius 3'],
  ['search_recipes', 'Find cooking recipes by ingredient or dish', 'A recipe with eggplant'],
  ['track_package', 'Track the delivery status of a parcel', 'Where is my package?'],
  ['movie_showtimes', 'Movies playing in cinemas near you and their showtimes', 'What movies are on tonight?'],
  ['news_headlines', 'The latest news headlines on a topic', 'Any news about the election?'],
  ['create_note', 'Write a note down for later', 'Note down my shopping list'],
  ['calendar_events', 'List the events in your calendar for a day', 'What is on my calendar tomorrow?'],
  ['find_restaurant', 'Find restaurants nearby by cuisine', 'A sushi place near me'],
  ['define_word', 'The definition of a word from the dictionary', 'What does serendipity mean?'],
  ['random_number', 'Pick a random number in a range', 'Roll a die'],
  ['timezone_time', 'The current time in a time zone or city', 'What time is it in Sydney?'],
  ['unit_convert', 'Convert lengths, weights and temperatures between units', 'How many kilometers is 5 miles?'],
  ['air_quality', 'Air pollution and air quality index of a city', 'Is the air clean in Delhi today?'],
  ['traffic_info', 'Traffic congestion on a road or route', 'Is the highway jammed?'],
  ['taxi_booking', 'Call a taxi to an address', 'Get me a cab to the station'],
  ['pay_bill', 'Pay an electricity, water or phone bill', 'Pay my water bill'],
  ['bank_balance', 'The balance of a bank account', 'How much money is in my account?'],
  ['lottery_results', 'The winning numbers of the latest lottery draw', 'Did my lottery numbers win?'],
  ['horoscope', 'Daily horoscope for a zodiac sign', 'My horoscope for Leo'],
  ['wikipedia_summary', 'A short summary of a Wikipedia article', 'Tell me about the Eiffel Tower'],
  ['qr_code', 'Make a QR code image from a text or link', 'Make a QR code for my website'],
];

const classOf = (name: string) => `${name.replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase())}Tool`;
const CATALOG_FILE = `import { BaseTool, ToolResult } from 'riverse';
${KINDS.map(
  ([name, description, example]) => `
export class ${classOf(name)} extends BaseTool {
  manifest() {
    return { name: ${JSON.stringify(name)}, description: ${JSON.stringify(description)}, parameters: { value: { type: 'string', required: true, description: 'What to work on' } }, examples: [${JSON.stringify(example)}] };
  }
  async execute(params) {
    return ToolResult.ok(${JSON.stringify(name)} + ': ' + params.value);
  }
}
`,
).join('')}`;

const shared = sharedCleanup();
let catalog: ToolRegistry;
before(async () => {
  catalog = await loadRegistry(shared, {
    files: { 'catalog.ts': CATALOG_FILE },
    config: { tools: { isolation: 'none', lottery_results: { enabled: false } } },
  });
});
after(() => shared.run());

const offeredIn = (request: RecordedRequest) => (request.body.tools ?? []).map((tool) => tool.function.name);
const routed = (settings: NonNullable<TurnOptions['routing']>['settings'] = { max_tools: 5 }) => ({
  router: new ToolRouter(),
  settings,
});

describe('a routed turn', () => {
  it('a catalog within the budget is offered whole, without find_tools', async (t) => {
    const server = await modelServer(t, replies([{ text: 'ok' }]));
    await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'hello',
      language: 'en',
      routing: routed({ max_tools: 100, max_tool_tokens: 100_000 }),
    });
    assert.deepEqual(
      offeredIn(server.requests[0]!),
      catalog.tools().map((tool) => tool.name),
    );
  });

  it('a router given as a function is made only when a turn routes: a catalog within the budget needs none (030)', async (t) => {
    const server = await modelServer(t, replies([{ text: 'ok' }, { text: 'ok' }]));
    let made = 0;
    const router = async () => (made++, new ToolRouter());
    const turn = (settings: NonNullable<TurnOptions['routing']>['settings']) =>
      runTurn({
        model: testModel(server),
        registry: catalog,
        history: [],
        input: 'Convert 20 dollars to yen',
        language: 'en',
        routing: { router, settings },
      });
    await turn({ max_tools: 100, max_tool_tokens: 100_000 });
    assert.equal(made, 0, 'offered whole: no router');
    await turn({ max_tools: 5 });
    assert.equal(made, 1);
    assert.ok(offeredIn(server.requests[1]!).includes('convert_currency'));
    assert.equal(offeredIn(server.requests[1]!).at(-1), FIND_TOOLS);
  });

  it('a larger one: the tools relevant to the request, in catalog order, and find_tools last; the same in every round', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ name: 'convert_currency', arguments: { value: '20 USD' } }] },
        { text: 'About 3,000 yen.' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'Convert 20 dollars to yen at the exchange rate',
      language: 'en',
      routing: routed(),
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    const [first, second] = server.requests.map(offeredIn);
    assert.ok(first!.includes('convert_currency'), first!.join(' '));
    // Only tools the request speaks of: at most max_tools with find_tools, not filled up with others.
    assert.ok(first!.length <= 5 && !first!.includes('horoscope'), first!.join(' '));
    assert.equal(first!.at(-1), FIND_TOOLS);
    const names = first!.slice(0, -1);
    assert.deepEqual(names, [...names].sort(), 'catalog order');
    // Stable across the turn's rounds, to the byte: providers' prompt caches key on it.
    assert.deepEqual(server.requests[1]!.body.tools, server.requests[0]!.body.tools);
    assert.deepEqual(second, first);
  });

  it('reads the request in any of its languages: a Japanese request reaches an English-described tool', async (t) => {
    const server = await modelServer(t, replies([{ text: 'ok' }]));
    await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: '明日のパリの天気を教えて',
      language: 'ja',
      routing: routed(),
    });
    assert.ok(offeredIn(server.requests[0]!).includes('get_weather'), offeredIn(server.requests[0]!).join(' '));
  });

  it('a follow-up is routed with the conversation before it', async (t) => {
    const server = await modelServer(t, replies([{ text: 'ok' }]));
    const history = [
      { role: 'user' as const, content: 'What is the weather forecast in Rome?' },
      { role: 'assistant' as const, content: 'Sunny.' },
    ];
    await runTurn({
      model: testModel(server),
      registry: catalog,
      history,
      input: 'And in Oslo?',
      language: 'en',
      routing: routed(),
    });
    assert.ok(offeredIn(server.requests[0]!).includes('get_weather'), offeredIn(server.requests[0]!).join(' '));
  });

  it('pinned tools are offered whatever the request; unknown or unavailable pinned names are passed over', async (t) => {
    const server = await modelServer(t, replies([{ text: 'ok' }]));
    await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'Convert 20 dollars to yen',
      language: 'en',
      routing: routed({ max_tools: 4, pinned: ['qr_code', 'no_such_tool', 'lottery_results'] }),
    });
    const offered = offeredIn(server.requests[0]!);
    assert.ok(offered.includes('qr_code') && offered.includes('convert_currency'), offered.join(' '));
    assert.ok(!offered.includes('lottery_results') && !offered.includes('no_such_tool'), offered.join(' '));
    assert.equal(offered.length, 4);
  });

  it('find_tools searches the whole catalog; what it finds is offered in the next round and runs like any tool', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ name: FIND_TOOLS, arguments: { query: 'make a QR code' } }] },
        { toolCalls: [{ name: 'qr_code', arguments: { value: 'https://example.com' } }] },
        { text: 'Here it is.' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'Convert 20 dollars to yen',
      language: 'en',
      routing: routed(),
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.ok(!offeredIn(server.requests[0]!).includes('qr_code'));
    const found = toolMessagesOf(server.requests[1]!)[0]!;
    assert.match(String(found.content), /- qr_code: Make a QR code image/);
    assert.ok(offeredIn(server.requests[1]!).includes('qr_code'), offeredIn(server.requests[1]!).join(' '));
    // The tools offered first stay, in their places: the found one joins in catalog order.
    const before = offeredIn(server.requests[0]!);
    assert.deepEqual(
      offeredIn(server.requests[1]!).filter((name) => name !== 'qr_code'),
      before,
    );
    assert.deepEqual(
      result.toolCalls.map((call) => [call.tool, call.result.success, call.result.data]),
      [
        [FIND_TOOLS, true, found.content],
        ['qr_code', true, 'qr_code: https://example.com'],
      ],
    );
  });

  it('the rules of a tool follow it when found: unavailable tools are never found, arguments are checked', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ name: FIND_TOOLS, arguments: { query: 'winning numbers of the lottery draw' } }] },
        { toolCalls: [{ name: FIND_TOOLS, arguments: { query: 'horoscope zodiac sign' } }] },
        {
          toolCalls: [
            { name: 'horoscope', arguments: { value: 42 } },
            { name: 'horoscope', arguments: {} },
          ],
        },
        { text: 'done' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'Convert 20 dollars to yen',
      language: 'en',
      routing: routed(),
    });
    assert.equal(result.stopReason, 'answer', JSON.stringify(result.error));
    assert.ok(!offeredIn(server.requests[1]!).includes('lottery_results'));
    assert.doesNotMatch(result.toolCalls[0]!.result.data, /lottery_results/);
    assert.ok(offeredIn(server.requests[2]!).includes('horoscope'));
    // Coerced as any call is (42 → "42"); a missing required parameter is refused before the tool runs.
    assert.equal(result.toolCalls[2]!.result.data, 'horoscope: 42');
    assert.equal(result.toolCalls[3]!.result.code, 'invalid-params');
  });

  it('a call to a tool of the catalog that was not offered is refused, pointing at find_tools; an unknown one is told what is offered; find_tools needs a query', async (t) => {
    const server = await modelServer(
      t,
      replies([
        {
          toolCalls: [
            { name: 'horoscope', arguments: { value: 'Leo' } },
            { name: FIND_TOOLS, arguments: {} },
            { name: 'no_such_tool', arguments: {} },
          ],
        },
        { text: 'done' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'Convert 20 dollars to yen',
      language: 'en',
      routing: routed(),
    });
    const [refused, noQuery, unknown] = result.toolCalls;
    assert.equal(refused!.result.code, 'not-offered');
    assert.match(refused!.result.error!, /find_tools/);
    assert.equal(noQuery!.result.code, 'invalid-params');
    // An unknown name is told the tools offered, not the thirty of the catalog.
    assert.equal(unknown!.result.code, 'unknown-tool');
    assert.equal(
      unknown!.result.error,
      `There is no tool named no_such_tool. The tools offered now: ${offeredIn(server.requests[0]!).join(', ')}. Call find_tools to look for another.`,
    );
  });

  it('find_tools adds at most max_tools in a turn, then says so', async (t) => {
    const queries = ['weather', 'email', 'flight hotel', 'music song', 'recipe', 'news', 'note calendar'];
    const server = await modelServer(
      t,
      replies([
        ...queries.map((query) => ({ toolCalls: [{ name: FIND_TOOLS, arguments: { query } }] })),
        { text: 'done' },
      ]),
    );
    const result = await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'Convert 20 dollars to yen',
      language: 'en',
      maxRounds: 10,
      routing: routed({ max_tools: 3 }),
    });
    const offered = offeredIn(server.requests.at(-1)!);
    assert.ok(offered.length <= 3 + 3, offered.join(' '));
    assert.ok(
      result.toolCalls.some((call) => /No more tools can be added/.test(call.result.data)),
      JSON.stringify(result.toolCalls.map((call) => call.result.data)),
    );
  });
});

describe('a routed turn with the semantic stage', () => {
  it('offers the tool the embeddings find when the request shares no word with it', async (t) => {
    const embeddings = await startEmbeddingsTestServer();
    t.after(() => embeddings.close());
    const router = new ToolRouter({
      semantic: new SemanticIndex(createOpenAIEmbeddings({ baseUrl: embeddings.url, model: 'test-embed' })),
    });
    router.sync(catalog.tools());
    await router.semanticReady();
    const server = await modelServer(t, replies([{ text: 'ok' }]));
    // "cash" is no word of convert_currency's; to the embeddings it is money, as currency is.
    await runTurn({
      model: testModel(server),
      registry: catalog,
      history: [],
      input: 'I need cash for my trip',
      language: 'en',
      routing: { router, settings: { max_tools: 5 } },
    });
    assert.ok(offeredIn(server.requests[0]!).includes('convert_currency'), offeredIn(server.requests[0]!).join(' '));
    const lexical = await modelServer(t, replies([{ text: 'ok' }]));
    await runTurn({
      model: testModel(lexical),
      registry: catalog,
      history: [],
      input: 'I need cash for my trip',
      language: 'en',
      routing: routed(),
    });
    assert.ok(!offeredIn(lexical.requests[0]!).includes('convert_currency'), offeredIn(lexical.requests[0]!).join(' '));
  });
});

describe('ToolRouter.sync', () => {
  it('changes only the tools whose manifest was added, changed or removed', () => {
    const router = new ToolRouter();
    const tools = catalog.tools();
    assert.equal(router.sync(tools), tools.length);
    assert.equal(router.sync(tools), 0);
    assert.equal(router.sync([...tools]), 0, 'the same manifests in a new list');
    assert.equal(
      router.sync(tools.map((tool) => ({ name: tool.name, manifest: { ...tool.manifest } }))),
      0,
      'new manifest objects that say the same (an MCP server listing again)',
    );
    const renamed = { name: 'weather_now', manifest: { ...tools[0]!.manifest, name: 'weather_now' } };
    const changed = {
      name: 'qr_code',
      manifest: { name: 'qr_code', description: 'Turn any text into a barcode picture' },
    };
    const next = [...tools.filter((tool) => tool.name !== 'qr_code' && tool.name !== 'air_quality'), changed, renamed];
    assert.equal(router.sync(next), 3, 'one changed, one removed, one added');
    assert.equal(router.search('barcode picture', 1)[0]?.name, 'qr_code');
    assert.ok(!router.search('air pollution quality index', 5).some((hit) => hit.name === 'air_quality'));
    assert.equal(router.size, next.length);
  });
});

describe("a routed turn's trace", () => {
  it('says how many tools were offered, which, that the turn was routed, and what find_tools found', async (t) => {
    const server = await modelServer(
      t,
      replies([
        { toolCalls: [{ name: FIND_TOOLS, arguments: { query: 'make a QR code' } }] },
        { toolCalls: [{ name: 'qr_code', arguments: { value: 'https://example.com' } }] },
        { text: 'Here it is.' },
      ]),
    );
    const model = testModel(server);
    const tracer = new TurnTracer({ turnId: 'routed', sessionId: 's', model });
    const result = await runTurn({
      model,
      registry: catalog,
      history: [],
      input: 'Convert 20 dollars to yen',
      language: 'en',
      routing: routed(),
      tracer,
      onEvent: (event) => tracer.event(event),
    });
    assert.equal(result.stopReason, 'answer');
    const { spans } = tracer.finish(result);
    const routing = spans.find((span) => span.kind === 'routing')!;
    const offered = offeredIn(server.requests[0]!);
    assert.equal(routing.attributes['riverse.routing.routed'], true);
    assert.equal(routing.attributes['riverse.routing.offered_count'], offered.length);
    assert.deepEqual(routing.attributes['riverse.routing.offered'], offered);
    const find = spans.find((span) => span.name === `execute_tool ${FIND_TOOLS}`)!;
    assert.deepEqual(find.attributes['riverse.find_tools.found'], ['qr_code']);
  });
});
