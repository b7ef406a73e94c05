// The commands that hints print. Each must run as printed where it is printed: in a checkout of
// Riverse and in an app that installed the package alike. A bare `riverse` is on PATH only after a
// global install, and a bare `node` may be older than Riverse needs (Node 20 on many machines;
// a checkout brings its own Node 24 as a devDependency): `npx` finds the project's own of both,
// and the system's when the project has none.

/** `riverse …` as a user types it. */
export const RIVERSE_COMMAND = 'npx riverse';

/** Runs a tool's own test file with Node's test runner. */
export function testCommand(file: string): string {
  return `npx node --test ${file}`;
}
