#!/usr/bin/env node
// The `riverse` command as npm installs it. Plain JavaScript in syntax any Node can parse, because
// its first job is to say which Node Riverse needs: on an older one, the program itself would stop
// at its first newer feature with a message about that feature, not about the version.
import { existsSync, readFileSync } from 'node:fs';

// A checkout runs its TypeScript sources (Node strips the types); the package ships compiled
// JavaScript instead, and no sources, because Node refuses to strip types under node_modules.
const sources = new URL('../src/cli/main.ts', import.meta.url);
const checkout = existsSync(sources);

// package.json's `engines` is the one statement of the Node versions Riverse supports.
const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const [neededMajor, neededMinor] = /(\d+)\.(\d+)/.exec(engines).slice(1).map(Number);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < neededMajor || (major === neededMajor && minor < neededMinor)) {
  // A checkout brings its own Node 24 (a development dependency): set the checkout up as `npm start`
  // does (a fresh clone's first `npx riverse` runs here, on the machine's Node), then run on that.
  const own = new URL(`../node_modules/node/bin/node${process.platform === 'win32' ? '.exe' : ''}`, import.meta.url);
  if (checkout) {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    // In this process, not a child: that was a third Node start (~40 ms) on every run, to find the
    // checkout set up. It runs npm only when package.json or the lock changed.
    try {
      await import('../scripts/setup.mjs');
    } catch {
      process.exit(1); // npm said what failed
    }
    if (existsSync(own)) {
      const child = spawn(fileURLToPath(own), [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
        stdio: 'inherit',
      });
      // Ctrl-C reaches both; the child decides what it means (a chat cancels a reply), this one waits.
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
      child.on('exit', (code) => process.exit(code ?? 1));
      await new Promise(() => {});
    }
  }
  process.stderr.write(
    `riverse needs Node.js ${neededMajor}.${neededMinor} or newer; this is Node.js ${process.versions.node} (${process.execPath}).\n` +
      (checkout
        ? 'This checkout brings its own Node 24, but it is not installed: run `npm install`, then `npm start` or `npx riverse …`.\n'
        : 'Install Node.js 24 LTS (https://nodejs.org/en/download, or `nvm install 24`), or give this project its own:\n' +
          '  npm install --save-dev node@24     # `npx riverse …` and npm scripts then run on it\n'),
  );
  process.exit(1);
}

// Node's compile cache goes on before Riverse's first file is read, so that the entry itself is
// kept stripped and compiled too: turned on inside it, the checkout's main.ts was stripped on every
// start, loading Node's type stripper for that one file (~12 ms).
(await import('node:module')).enableCompileCache();
// A checkout runs its sources bundled into a few files when it can (scripts/checkout-bundle.mjs,
// decision 042): loading ~250 modules one by one was most of a short command's time.
const entry = checkout
  ? ((await (await import('../scripts/checkout-bundle.mjs')).checkoutEntry()) ?? sources.href)
  : new URL('../dist/cli/main.js', import.meta.url).href;
await import(entry);
