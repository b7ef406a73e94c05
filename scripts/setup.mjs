// Installs the project's dependencies (Node 24 among them) when they are missing or out of date.
// Runs on whatever Node the machine has (20 here), so it uses nothing newer: as a script (npm's
// prestart, pretest), or imported by bin/riverse.js, which does the same in its own process.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const modules = join(root, 'node_modules');
const stamp = join(modules, '.riverse-setup');
const hash = createHash('sha256')
  .update(readFileSync(join(root, 'package.json')))
  .update(existsSync(join(root, 'package-lock.json')) ? readFileSync(join(root, 'package-lock.json')) : '')
  .digest('hex');

if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
  // A node_modules that links to another checkout's (a git worktree sharing it) is that checkout's
  // to install: `npm ci` here would delete and rewrite it under every checkout that uses it.
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    console.error(
      `riverse: node_modules is a link to ${realpathSync(modules)}, which is not set up for this package.json;\n` +
        'install there (`npm ci` in that checkout), or replace the link with a folder of its own.',
    );
    process.exit(1);
  }
  console.error('riverse: installing dependencies (first run, or package.json changed)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(
    npm,
    [existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: root, stdio: 'inherit' },
  );
  writeFileSync(stamp, hash);
  // The `node` package unpacks Node 24 after npm wrote its record of the tree (node_modules/
  // .package-lock.json), so the next npm command would find the record stale, rebuild it, and warn
  // on the way that this machine's Node is older than `engines` asks (EBADENGINE), though everything
  // here runs on that Node 24. The tree is exactly what npm installed: mark the record current.
  const record = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(record)) utimesSync(record, new Date(), new Date());
}
