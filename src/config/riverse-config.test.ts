import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TOOLS_SETTINGS } from '../tools/app-config.ts';
import { english } from '../core/phrase.ts';
import { CONFIG_FIELDS, TOOLS_FIELDS } from './riverse-config.ts';
import { validateConfig } from './validate-config.ts';

/** The problems with their English text, as `problems` of a ConfigError shows them. */
const plainProblems = (config: unknown) =>
  validateConfig(config).map(({ path, text }) => ({ path, message: english(text) }));

describe('the riverse.yaml schema', () => {
  test('the tools: settings it checks are the ones the tool contract treats as settings, not tool sections', () => {
    // The types tie the table to ToolsConfig; this ties it to the list the loader reads at run time.
    assert.deepEqual(Object.keys(TOOLS_FIELDS).sort(), [...TOOLS_SETTINGS].sort());
  });

  test('a mapping message lists the keys of its table', () => {
    assert.deepEqual(plainProblems({ model_options: 'fast' }), [
      {
        path: ['model_options'],
        message:
          'expected a mapping (base_url, api_key, tool_calling, strict_tools, timeout_ms, max_retries, max_reply_chars, max_tool_call_chars, vision), got string "fast"',
      },
    ]);
    assert.deepEqual(Object.keys(CONFIG_FIELDS), [
      'model',
      'data_dir',
      'language',
      'model_options',
      'assistant',
      'routing',
      'tools',
      'server',
      'mcp',
      'telemetry',
      'store',
    ]);
  });

  test("mcp: servers in the shape of Claude Desktop's mcpServers, each problem where it is", () => {
    assert.deepEqual(
      validateConfig({
        mcp: {
          startup_timeout_ms: 2000,
          servers: {
            files: {
              command: 'npx',
              args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
              env: { DEBUG: '1' },
              allow_tools: ['read_file'],
            },
            remote: {
              url: 'https://example.com/mcp',
              headers: { Authorization: 'Bearer x' },
              timeout_ms: 5000,
              type: 'http',
            },
            off: null,
          },
        },
      }),
      [],
    );
    const problems = validateConfig({
      mcp: {
        enabled: 'yes',
        servers: {
          a: {},
          b: { command: 'x', url: 'http://h/mcp' },
          c: { url: 'ftp://h' },
          d: { command: 'x', env: { N: 1 }, args: 'x' },
          e: { type: 'sse', url: 'http://h' },
          f: { type: 'http', command: 'x' },
        },
      },
    });
    const at = (path: string) =>
      problems.filter((problem) => problem.path.join('.') === path).map((problem) => english(problem.text));
    assert.deepEqual(at('mcp.enabled'), ['expected true or false, got string "yes"']);
    assert.match(at('mcp.servers.a')[0]!, /expected "command" .* or "url"/);
    assert.match(at('mcp.servers.b')[0]!, /both "command" and "url"/);
    assert.match(at('mcp.servers.c.url')[0]!, /http:\/\/ or https:\/\//);
    assert.match(at('mcp.servers.d.env.N')[0]!, /expected text/);
    assert.match(at('mcp.servers.d.args')[0]!, /list of arguments/);
    assert.match(at('mcp.servers.e.type')[0]!, /one of stdio, http, streamable-http/);
    assert.match(at('mcp.servers.f')[0]!, /takes a url, not a command/);
  });

  test("mcp: an HTTP server's oauth: sign-in settings, or false; each problem where it is", () => {
    assert.deepEqual(
      validateConfig({
        mcp: {
          servers: {
            a: { url: 'https://a/mcp', oauth: false },
            b: { url: 'https://b/mcp', oauth: { client_id: 'riverse', client_secret: 's', scope: 'read write' } },
            c: { url: 'https://c/mcp', oauth: { grant: 'jwt_bearer', client_id: 'w', assertion: 'eyJ…' } },
          },
        },
      }),
      [],
    );
    const problems = validateConfig({
      mcp: {
        servers: {
          d: { url: 'https://d/mcp', oauth: true },
          e: { url: 'https://e/mcp', oauth: { grant: 'password', client_id: 7 } },
        },
      },
    });
    const at = (path: string) =>
      problems.filter((problem) => problem.path.join('.') === path).map((problem) => english(problem.text));
    assert.match(at('mcp.servers.d.oauth')[0]!, /expected a mapping \(grant, client_id, client_secret/);
    assert.match(
      at('mcp.servers.e.oauth.grant')[0]!,
      /one of authorization_code, client_credentials, cross_app_access, jwt_bearer/,
    );
    assert.match(at('mcp.servers.e.oauth.client_id')[0]!, /expected text/);
  });

  test('routing: its budget and pinned tools are checked, each problem where it is', () => {
    assert.deepEqual(
      plainProblems({
        routing: {
          max_tool_tokens: 3000,
          max_tools: 12,
          pinned: ['weather'],
          embeddings: { model: 'text-embedding-3-small', base_url: 'http://127.0.0.1:11434/v1', timeout_ms: 5000 },
        },
      }),
      [],
    );
    assert.deepEqual(plainProblems({ routing: { embeddings: { model: 3 } } }), [
      { path: ['routing', 'embeddings', 'model'], message: 'expected text, got number 3' },
    ]);
    assert.deepEqual(plainProblems({ routing: { max_tool_tokens: 0, max_tools: 2.5, pinned: 'weather' } }), [
      { path: ['routing', 'max_tool_tokens'], message: 'expected a whole number of tokens, at least 1, got number 0' },
      { path: ['routing', 'max_tools'], message: 'expected a whole number of tools, at least 1, got number 2.5' },
      { path: ['routing', 'pinned'], message: 'expected a list of tool names, got string "weather"' },
    ]);
  });

  test('server: its port, host lists, origins and body limit are checked, each problem where it is', () => {
    assert.deepEqual(
      plainProblems({
        server: {
          host: '127.0.0.1',
          port: 8400,
          token: 't',
          allowed_hosts: ['riverse.example'],
          cors_origins: ['https://app.example', 'http://127.0.0.1:3000'],
          max_body_bytes: 1024,
        },
      }),
      [],
    );
    assert.deepEqual(
      plainProblems({
        server: {
          port: 70000,
          token: '',
          allowed_hosts: 'riverse.example',
          cors_origins: ['https://app.example/', 'app.example'],
          max_body_bytes: 0,
        },
      }),
      [
        { path: ['server', 'port'], message: 'expected a port number from 0 to 65535, got number 70000' },
        { path: ['server', 'token'], message: 'expected text, got string ""' },
        { path: ['server', 'allowed_hosts'], message: 'expected a list of host names, got string "riverse.example"' },
        {
          path: ['server', 'cors_origins', 0],
          message:
            'expected an origin such as "https://app.example" (scheme, host and port, no path or trailing slash), got string "https://app.example/"',
        },
        {
          path: ['server', 'cors_origins', 1],
          message:
            'expected an origin such as "https://app.example" (scheme, host and port, no path or trailing slash), got string "app.example"',
        },
        { path: ['server', 'max_body_bytes'], message: 'expected a whole number of bytes, at least 1, got number 0' },
      ],
    );
  });

  test('server: the time limits and the /v1 sampling rules are checked against their bounds', () => {
    assert.deepEqual(
      plainProblems({
        server: {
          header_timeout_ms: 5_000,
          body_timeout_ms: 30_000,
          v1: {
            temperature: { min: 0, max: 1 },
            top_p: { pin: 0.9 },
            max_tokens: { max: 4096 },
            stop: { pin: ['END'] },
            seed: 'ignore',
            presence_penalty: 'allow',
            frequency_penalty: { min: -1 },
          },
        },
      }),
      [],
    );
    assert.deepEqual(
      plainProblems({
        server: {
          body_timeout_ms: 0,
          v1: { temperature: { max: 3 }, seed: { pin: 1.5 }, top_p: { min: 0.9, max: 0.1 }, stop: 'END' },
        },
      }).map((problem) => [problem.path.join('.'), problem.message]),
      [
        ['server.body_timeout_ms', 'expected a whole number of at least 1, got number 0'],
        [
          'server.v1.temperature',
          'expected allow, ignore, a range {min, max} or {pin: value}, the numbers from 0 to 2, got a mapping',
        ],
        [
          'server.v1.top_p',
          'expected allow, ignore, a range {min, max} or {pin: value}, the numbers from 0 to 1, got a mapping',
        ],
        ['server.v1.stop', 'expected allow, ignore or {pin: [texts]}, got string "END"'],
        [
          'server.v1.seed',
          'expected allow, ignore, a range {min, max} or {pin: value}, whole numbers from -∞ to ∞, got a mapping',
        ],
      ],
    );
  });

  test('keys it does not know, empty sections and tool sections pass', () => {
    assert.deepEqual(
      plainProblems({
        source: 'env',
        model_options: null,
        assistant: { name: 'Riv' },
        tools: { weather: { key: 'k', enabled: true }, clock: null },
      }),
      [],
    );
  });

  test('telemetry:, store.traces: and store.tasks: are checked, grpc refused with what to set instead', () => {
    assert.deepEqual(
      plainProblems({
        telemetry: {
          exporter: 'otlp',
          endpoint: 'http://collector:4318',
          protocol: 'http/json',
          headers: { 'x-api-key': 'k' },
          service_name: 'home-riverse',
          resource_attributes: { 'deployment.environment': 'home' },
          capture_message_content: true,
        },
        store: {
          url: 'postgres://riverse:secret@db.local:5432/riverse',
          traces: { max_age_days: 7, max_count: 500 },
          tasks: { max_age_days: 30, max_count: 100 },
        },
      }),
      [],
    );
    assert.doesNotMatch(
      JSON.stringify(plainProblems({ store: { url: 'mysql://root:hunter2@db/riverse' } })),
      /hunter2/,
    );
    assert.deepEqual(plainProblems({ store: { url: 'mysql://db.local/riverse' } }), [
      {
        path: ['store', 'url'],
        message:
          'expected a PostgreSQL URL starting postgres:// or postgresql:// (like "postgres://riverse:secret@db.local:5432/riverse"); leave store.url out for the SQLite file in the data folder, got string "mysql://db.local/riverse"',
      },
    ]);
    assert.deepEqual(
      plainProblems({
        telemetry: { exporter: 'zipkin', endpoint: 'collector:4318', protocol: 'grpc', headers: { a: 1 } },
        store: { traces: { max_age_days: 0, max_count: 'many' }, tasks: { max_count: 0 } },
      }),
      [
        { path: ['telemetry', 'exporter'], message: 'expected one of otlp, console, none, got string "zipkin"' },
        {
          path: ['telemetry', 'endpoint'],
          message:
            'expected an http:// or https:// URL (a collector\'s is like "http://localhost:4318"), got string "collector:4318"',
        },
        {
          path: ['telemetry', 'protocol'],
          message:
            'Riverse exports traces over OTLP/HTTP only, not "grpc": set "http/protobuf" (the default, port 4318) or "http/json"',
        },
        {
          path: ['telemetry', 'headers'],
          message: 'expected a mapping of names to texts (name: value), got a mapping',
        },
        {
          path: ['store', 'traces', 'max_age_days'],
          message: 'expected a whole number of days, at least 1, got number 0',
        },
        {
          path: ['store', 'traces', 'max_count'],
          message: 'expected a whole number of traces, at least 1, got string "many"',
        },
        {
          path: ['store', 'tasks', 'max_count'],
          message: 'expected a whole number of tasks, at least 1, got number 0',
        },
      ],
    );
  });

  test('store.pool_max: a whole number of connections, at least 1', () => {
    assert.deepEqual(plainProblems({ store: { url: 'postgres://riverse@db/riverse', pool_max: 20 } }), []);
    assert.deepEqual(plainProblems({ store: { pool_max: 0 } }), [
      { path: ['store', 'pool_max'], message: 'expected a whole number of connections, at least 1, got number 0' },
    ]);
  });
});
