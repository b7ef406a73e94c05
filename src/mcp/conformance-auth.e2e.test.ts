// The MCP conformance suite's client scenarios for sign-in (auth/…) and for a server's requests for
// input (elicitation, and the 2026 revision's input-required round trips), every one each version
// lists, run against Riverse's own client (conformance-client.ts: McpTools, the registry, the
// `oauth:` settings, the loopback sign-in page). Figures in docs/decisions/026-mcp-client-oauth.md.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './conformance-client.ts' : './conformance-client.js',
  import.meta.url,
).pathname;

const NEXT = join(root, 'node_modules/mcp-conformance-next/dist/index.js');
/** Each version at its scenarios' own revisions; the newest again with every scenario on the 2026-07-28 wire (stateless, `server/discover`). */
const SUITES = [
  { version: '0.1.16', judge: join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'), args: [] },
  { version: '0.2.0-alpha.12', judge: NEXT, args: [] },
  { version: '0.2.0-alpha.12 at 2026-07-28', judge: NEXT, args: ['--spec-version', '2026-07-28'] },
];

/**
 * Scenarios a version's own mock gets wrong, each with why; they must fail (an entry that passes is
 * stale and fails the test). 0.1.16's legacy mock serves its metadata at the root well-known path
 * with `issuer` `<origin>/oauth`, which RFC 8414 §3.3 forbids and the SDK rightly refuses; the
 * suite fixed its mock after that release (conformance#359) and 0.2.0-alpha.12 passes it.
 */
const JUDGE_FAULTS: Record<string, Record<string, string>> = {
  '0.1.16': { 'auth/2025-03-26-oauth-metadata-backcompat': 'mock metadata issuer breaks RFC 8414 §3.3' },
};

const MINE = /^(auth\/|elicitation|sep-2322-client-request-state$)/;
/** Two at a time: each runs an authorization server, an MCP server and a client process. */
const CONCURRENCY = 2;

async function output(args: string[], timeout: number): Promise<string> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, {
      cwd: root,
      timeout,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; killed?: boolean };
    assert.ok(!failed.killed, `${args.slice(1, 5).join(' ')} did not finish in time`);
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
}

/** The client scenarios of this version that are about sign-in or requests for input, as its `list` names them. */
async function scenarios(judge: string): Promise<string[]> {
  const listed = await output([judge, 'list'], 30_000);
  const client = listed.slice(listed.indexOf('Client scenarios'));
  const section = client.slice(0, client.indexOf('\n\n') === -1 ? undefined : client.indexOf('\n\n'));
  return [...section.matchAll(/^\s+- (\S+)/gmu)].map((match) => match[1]!).filter((name) => MINE.test(name));
}

for (const { version, judge, args } of SUITES) {
  test(`conformance ${version}, client mode: every auth and elicitation scenario against Riverse's client`, async () => {
    const names = await scenarios(judge);
    assert.ok(names.length >= 20, `${version} lists its auth scenarios (${names.join(', ')})`);
    const results = new Map<string, { passed: boolean; tail: string }>();
    const queue = [...names];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          const out = await output(
            [
              judge,
              'client',
              '--command',
              `${process.execPath} --conditions=riverse-source ${ENTRY}`,
              '--scenario',
              name,
              ...args,
            ],
            120_000,
          );
          // A scenario of an older revision only is not run at a newer one (the suite says SKIPPED).
          if (/SKIPPED: scenario .* is not applicable/.test(out)) continue;
          results.set(name, { passed: /OVERALL: PASSED/.test(out), tail: out.slice(-2500) });
        }
      }),
    );
    const faults = JUDGE_FAULTS[version] ?? {};
    const run = names.filter((name) => results.has(name));
    const passed = run.filter((name) => results.get(name)!.passed);
    console.log(
      `conformance ${version}: ${passed.length} of ${run.length} client auth and elicitation scenarios pass (${names.length - run.length} not of this revision)\n${run
        .map(
          (name) => `${results.get(name)!.passed ? 'pass' : 'fail'} ${name}${faults[name] ? ` (${faults[name]})` : ''}`,
        )
        .join('\n')}`,
    );
    for (const name of run) {
      const { passed: ok, tail } = results.get(name)!;
      if (faults[name] !== undefined) assert.equal(ok, false, `${name} passes now: remove it from JUDGE_FAULTS`);
      else assert.ok(ok, `${version} ${name}\n${tail}`);
    }
  });
}
