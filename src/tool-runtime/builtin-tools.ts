import { fileURLToPath } from 'node:url';

/** Compiled: Riverse installed as a package (decision 007), not run from a checkout's sources. */
const PACKAGED = !import.meta.url.endsWith('.ts');

/**
 * The folder of the built-in tools that come with this copy of Riverse (decision 016). The package
 * ships them compiled, in `dist/agent/tools`; in a checkout they are its `agent/tools`, the sources.
 */
export const BUILTIN_TOOL_FOLDER = fileURLToPath(
  new URL(PACKAGED ? '../agent/tools' : '../../agent/tools', import.meta.url),
);

/**
 * Whether the built-ins join the app's own folders unless told otherwise: in the package, yes. In a
 * checkout they are its default folder already, so a project elsewhere (a test's) holds only its own.
 */
export const BUILTINS_BY_DEFAULT = PACKAGED;
