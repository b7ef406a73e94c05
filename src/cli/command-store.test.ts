// The store of a command that opens none at start: not opened by `tools list`, opened by a sign-in,
// which then lands in the store `riverse serve` reads — on PostgreSQL, the one every replica shares.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { protectedServer } from '../mcp/oauth/testing/protected-server.ts';
import { startReplicas } from '../server/testing/replicas.ts';
import { openPostgresStore } from '../store/postgres/open-postgres-store.ts';
import { type PgCluster, startPgCluster } from '../store/postgres/testing/pg-cluster.ts';
import { createProject, ECHO_TOOL, show, type TempProject } from './cli-test-support.ts';

describe("a command's store", () => {
  let project: TempProject;
  before(async () => {
    project = await createProject({ 'agent/tools/echo.ts': ECHO_TOOL });
    await project.linkRiverse();
  });
  after(() => project?.remove());

  it('`tools list` with no MCP server to sign in to opens none (no database is made)', async () => {
    const listed = await project.run(['tools', 'list']);
    assert.equal(listed.code, 0, show(listed));
    assert.match(listed.stdout, /echo/);
    assert.equal(existsSync(project.path('.riverse-data/riverse.db')), false);
  });

  describe('on PostgreSQL (RIVERSE_DATABASE_URL)', () => {
    let cluster: PgCluster;
    before(async () => {
      cluster = await startPgCluster();
    });
    after(() => cluster?.stop());

    it('a sign-in made by `riverse mcp` (stdio) is kept in the database, and `riverse serve` on it uses it', async (t) => {
      const url = await cluster.createDatabase('signins');
      const server = await protectedServer(t);
      await project.write(
        'riverse.yaml',
        `mcp:\n  startup_timeout_ms: 20000\n  servers:\n    notes:\n      url: ${JSON.stringify(server.url)}\n`,
      );
      // `riverse mcp` as an MCP client starts it; the person opens the link it prints on stderr in a
      // browser (here, a fetch), the authorization server sends it back to the command's page.
      const store = await openPostgresStore(url);
      let opened = false;
      const served = await project.run(['mcp'], {
        env: { RIVERSE_DATABASE_URL: url },
        openStdin: true,
        onStderr: (stderr, child) => {
          const link = /^ {2}(http:\/\/\S+)$/m.exec(stderr)?.[1];
          if (link === undefined || opened) return;
          opened = true;
          void (async () => {
            await (await fetch(link)).text();
            // Signed in: the client closes the command once the tokens are kept (bounded by the test's time).
            while ((await store.oauth.latest(server.url)) === undefined)
              await new Promise((resolve) => setTimeout(resolve, 50));
            child.stdin?.end();
          })().catch((error: unknown) => child.kill() && console.error(error));
        },
      });
      assert.equal(served.code, 0, show(served));
      assert.equal(server.authorizations.length, 1, 'one sign-in');
      try {
        assert.equal((await store.oauth.latest(server.url))?.issuer, server.origin, 'the tokens are in the database');
      } finally {
        await store.close();
      }
      assert.equal(existsSync(project.path('.riverse-data/mcp-oauth')), false, 'and not in files');

      // A replica on the same database signs in with them: its tools include the server's, and nobody is asked again.
      const { replicas, stop } = await startReplicas(1, { cwd: project.dir, store: { databaseUrl: url } });
      try {
        let names: string[] = [];
        while (!names.includes('notes__whoami')) {
          const listing = (await (await fetch(`${replicas[0]!.url}api/tools`)).json()) as { tools: { name: string }[] };
          names = listing.tools.map((tool) => tool.name);
          if (!names.includes('notes__whoami')) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.equal(server.authorizations.length, 1, 'no second sign-in');
        assert.doesNotMatch(replicas[0]!.output(), /needs you to sign in/);
      } finally {
        await stop();
      }
    });
  });
});
