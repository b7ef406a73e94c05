// How to install node-llama-cpp, the optional runtime of local models: only the CPU build for this
// platform (~83 MB). A plain install would add the CUDA and Vulkan builds too (~700 MB).
// Run this file to install it in a checkout: `npx node src/models/providers/local/local-llama-install.ts`
// (CI does); an app is told `npm install node-llama-cpp@…` instead (installCommand).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_LLAMA_CPP_VERSION = '3.21.1';

/** The prebuilt CPU binary package for a platform, or undefined where none is published. */
export function platformPackage(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const names: Record<string, string> = {
    'linux-x64': 'linux-x64',
    'linux-arm64': 'linux-arm64',
    'linux-arm': 'linux-armv7l',
    'linux-riscv64': 'linux-riscv64',
    'darwin-arm64': 'mac-arm64-metal',
    'darwin-x64': 'mac-x64',
    'win32-x64': 'win-x64',
    'win32-arm64': 'win-arm64',
  };
  const name = names[`${platform}-${arch}`];
  return name === undefined ? undefined : `@node-llama-cpp/${name}`;
}

/**
 * Where the install runs: this checkout, or the app that installed the riverse package (in the
 * package's own folder, npm would install riverse's development dependencies too).
 */
const RIVERSE_FOLDER = fileURLToPath(new URL('../../../../', import.meta.url));
export const ROOT = installRoot(RIVERSE_FOLDER);

/** Riverse runs from a checkout of its repository, not from an app's node_modules. */
const CHECKOUT = ROOT === RIVERSE_FOLDER;

export function installRoot(riverseFolder: string): string {
  const at = riverseFolder.indexOf(`${sep}node_modules${sep}`);
  return at === -1 ? riverseFolder : riverseFolder.slice(0, at + 1);
}

/**
 * The npm arguments. `--omit=optional` keeps out the GPU builds, but it would also remove every
 * optional package already installed (TypeScript's native compiler among them), so those are named
 * again: explicitly named packages are always installed.
 */
export function installArguments(root: string = ROOT): string[] {
  const binary = platformPackage();
  return [
    'install',
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--omit=optional',
    `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`,
    ...(binary === undefined ? [] : [`${binary}@${NODE_LLAMA_CPP_VERSION}`]),
    ...installedOptionalPackages(root),
  ];
}

/**
 * The one command a person is told to type, short and the same on every machine. In a checkout,
 * this file, which installs the CPU build alone (above). In an app, a plain install: saved, so
 * that the app's next `npm install` keeps it (npm adds the GPU builds published for the platform).
 */
export function installCommand(checkout: boolean = CHECKOUT): string {
  return checkout
    ? 'npx node src/models/providers/local/local-llama-install.ts'
    : `npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`;
}

/** `name@version` of the top-level optional packages of the lockfile that are on disk. */
function installedOptionalPackages(root: string): string[] {
  let lock: { packages?: Record<string, { version?: string; optional?: boolean }> };
  try {
    lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as typeof lock;
  } catch {
    return []; // riverse installed as a package: its own optional dependencies are not ours to keep
  }
  const kept: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    const name = path.startsWith('node_modules/') ? path.slice('node_modules/'.length) : '';
    if (name === '' || name.includes('/node_modules/') || entry.optional !== true || entry.version === undefined)
      continue;
    if (name.startsWith('@node-llama-cpp/') || !existsSync(join(root, path))) continue;
    kept.push(`${name}@${entry.version}`);
  }
  return kept;
}

if (import.meta.main) {
  const args = installArguments();
  console.error(`riverse: installing the local-model runtime: npm ${args.join(' ')}`);
  // Skip node-llama-cpp's postinstall: with no prebuilt binary it would try to compile llama.cpp
  // from a download, and riverse never uses such a build (it asks for prebuilt binaries only).
  const env = { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' };
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
    cwd: ROOT,
    env,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
}
