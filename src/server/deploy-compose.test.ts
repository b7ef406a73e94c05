// deploy/compose.yaml without Docker (no `docker compose` on these machines): valid against the
// Compose Specification's JSON schema (the one the dclint package ships, checked with our Ajv), and
// consistent with what it runs — every variable deploy/haproxy.cfg reads is given to HAProxy, its
// replicas' addresses are where the replicas listen, the database URL is the postgres service's,
// and the variables docs/replicas.md's command sets are the ones the file requires.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
}

const compose = parse(read('deploy/compose.yaml')) as { services: Record<string, Service> };
const { services } = compose;
const replicas = ['riverse-1', 'riverse-2'];

/** What a `${NAME:-default}` or `${NAME:?message}` of the file stands for: its name. */
const variableOf = (value: string) => /^\$\{([A-Z0-9_]+)(?::[-?][^}]*)?\}$/.exec(value)?.[1];

describe('deploy/compose.yaml', () => {
  it("is a Compose file by the specification's JSON schema", () => {
    // The package's own copy of compose-spec's schema (a dev dependency: a linter of Compose files).
    const require = createRequire(import.meta.url);
    let packageFile: string;
    try {
      packageFile = require.resolve('dclint/package.json');
    } catch (error) {
      throw new Error('dclint, a dev dependency, is not installed: run npm install (or npm ci).', { cause: error });
    }
    const schemaFile = join(dirname(packageFile), 'schemas', 'compose.schema.json');
    const { $schema: _draft7, ...schema } = JSON.parse(readFileSync(schemaFile, 'utf8')) as {
      $schema: string;
      title: string;
    };
    assert.equal(schema.title, 'Compose Specification');
    // Draft 7 (Ajv's own draft, under a URL spelled without the '#' Ajv knows it by).
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    assert.ok(validate(compose), JSON.stringify(validate.errors, null, 2));
  });

  it('gives HAProxy every variable deploy/haproxy.cfg reads, its config, and publishes the port it listens on', () => {
    const haproxy = services.haproxy!;
    const cfgVariables = [...read('deploy/haproxy.cfg').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((match) => match[1]);
    assert.deepEqual([...new Set(cfgVariables)].sort(), Object.keys(haproxy.environment!).sort());
    assert.ok(
      haproxy.volumes!.includes('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'),
      'the image reads it there',
    );
    const listenPort = haproxy.environment!.RIVERSE_LISTEN!.split(':').at(-1);
    assert.ok(haproxy.ports!.includes(`${listenPort}:${listenPort}`), JSON.stringify(haproxy.ports));
    assert.match(read('docs/replicas.md'), new RegExp(`http://localhost:${listenPort}/|127\\.0\\.0\\.1:${listenPort}`));
  });

  it("sends HAProxy to each replica where it listens, with the replicas' token", () => {
    const environment = services.haproxy!.environment!;
    for (const [index, name] of replicas.entries()) {
      const replica = services[name]!;
      const command = replica.command!;
      assert.deepEqual(command.slice(0, 2), ['node_modules/.bin/riverse', 'serve'], 'the replica itself, not npx');
      assert.equal(command[command.indexOf('--host') + 1], '0.0.0.0', 'reachable from the balancer');
      assert.equal(environment[`RIVERSE_REPLICA_${index + 1}`], `${name}:${command[command.indexOf('--port') + 1]}`);
      assert.equal(replica.environment!.RIVERSE_TOKEN, environment.RIVERSE_TOKEN);
    }
  });

  it("has the replicas use the postgres service's database, once it is healthy", () => {
    const postgres = services.postgres!.environment!;
    for (const name of replicas) {
      const replica = services[name]!;
      const url = new URL(replica.environment!.RIVERSE_DATABASE_URL!.replace(/\$\{[^}]*\}/, 'password'));
      assert.equal(url.protocol, 'postgres:');
      assert.equal(url.hostname, 'postgres');
      assert.equal(url.username, postgres.POSTGRES_USER);
      assert.equal(url.pathname, `/${postgres.POSTGRES_DB}`);
      assert.equal(
        variableOf(/^postgres:\/\/[^:]+:([^@]+)@/.exec(replica.environment!.RIVERSE_DATABASE_URL!)![1]!),
        variableOf(postgres.POSTGRES_PASSWORD!),
      );
      assert.deepEqual(replica.depends_on, { postgres: { condition: 'service_healthy' } });
    }
  });

  it('requires exactly the variables the documented command sets', () => {
    const required = new Set(
      [...read('deploy/compose.yaml').matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((match) => match[1]!),
    );
    const documented = read('docs/replicas.md')
      .split('```')
      .find((block) => block.includes('docker compose -f deploy/compose.yaml up -d'));
    assert.ok(documented, 'docs/replicas.md gives the docker compose command');
    const set = new Set([...documented.matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((match) => match[1]!));
    assert.deepEqual([...set].sort(), [...required].sort());
  });
});
