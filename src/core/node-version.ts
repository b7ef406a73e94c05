// The package's entries import this first, so that an app on a Node older than Riverse supports is
// told which version it needs and how to get it (as the `riverse` command says), instead of a
// SyntaxError about an export of node:module. ES modules are all parsed and linked before any runs:
// for this to run at all, nothing in the package imports a name an older Node lacks (they read
// such functions off the module's namespace instead).
import { readFileSync } from 'node:fs';

/** package.json's `engines.node` is the one statement of the Node versions Riverse supports. */
const engines = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }
).engines.node;
const [neededMajor = 0, neededMinor = 0] = /(\d+)\.(\d+)/.exec(engines)!.slice(1).map(Number);
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);

if (major < neededMajor || (major === neededMajor && minor < neededMinor)) {
  throw Object.assign(
    new Error(
      `riverse needs Node.js ${neededMajor}.${neededMinor} or newer; this is Node.js ${process.versions.node} (${process.execPath}).\n` +
        'Install Node.js 24 LTS (https://nodejs.org/en/download, or `nvm install 24`), or give this project its own:\n' +
        '  npm install --save-dev node@24     # then run your program with it: `npx node app.js`, or an npm script\n',
    ),
    { code: 'ERR_RIVERSE_NODE_VERSION' },
  );
}
