import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { installArguments, installCommand, installRoot, platformPackage } from './local-llama-install.ts';

test('the install takes the pinned CPU build only, and keeps the optional packages already installed', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'riverse-install-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'node_modules/@typescript/typescript-linux-x64'), { recursive: true });
  await writeFile(
    join(root, 'package-lock.json'),
    JSON.stringify({
      packages: {
        '': {},
        'node_modules/typescript': { version: '7.0.2' },
        'node_modules/@typescript/typescript-linux-x64': { version: '7.0.2', optional: true },
        'node_modules/@typescript/typescript-darwin-arm64': { version: '7.0.2', optional: true }, // not on disk
        'node_modules/a/node_modules/b': { version: '1.0.0', optional: true },
      },
    }),
  );
  const args = installArguments(root);
  assert.deepEqual(args.slice(0, 6), [
    'install',
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--omit=optional',
    'node-llama-cpp@3.21.1',
  ]);
  assert.equal(args.at(-1), '@typescript/typescript-linux-x64@7.0.2');
  assert.ok(!args.some((arg) => arg.includes('darwin') || arg.startsWith('b@')));
  if (platformPackage() !== undefined) assert.ok(args.includes(`${platformPackage()}@3.21.1`));
});

test('the command a person is told is short and stable: no list of packages, saved in an app', () => {
  assert.equal(installCommand(true), 'npx node src/models/providers/local/local-llama-install.ts');
  assert.equal(installCommand(false), 'npm install node-llama-cpp@3.21.1');
  // This checkout runs the first: the file it names is there.
  assert.equal(installCommand(), installCommand(true));
  assert.ok(existsSync(fileURLToPath(new URL('./local-llama-install.ts', import.meta.url))));
});

test('each platform has its prebuilt package name', () => {
  assert.equal(platformPackage('linux', 'x64'), '@node-llama-cpp/linux-x64');
  assert.equal(platformPackage('darwin', 'arm64'), '@node-llama-cpp/mac-arm64-metal');
  assert.equal(platformPackage('win32', 'x64'), '@node-llama-cpp/win-x64');
  assert.equal(platformPackage('aix', 'ppc64'), undefined);
});

test('installed in an app, the install runs in the app, not in the riverse package folder', () => {
  assert.equal(installRoot(`${join('/work', 'app', 'node_modules', 'riverse')}/`), `${join('/work', 'app')}/`);
  assert.equal(
    installRoot(`${join('/work', 'app', 'node_modules', '.pnpm', 'riverse@0.1.0', 'node_modules', 'riverse')}/`),
    `${join('/work', 'app')}/`,
  );
  assert.equal(installRoot('/src/riverse/'), '/src/riverse/');
});
