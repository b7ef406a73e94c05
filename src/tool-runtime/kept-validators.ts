// Argument validators kept between processes, as the JavaScript Ajv generated for them (its
// "standalone" code), in the load cache's folder: a start whose tools' schemas were compiled before
// neither loads Ajv (~100 CommonJS files) nor generates code again, 60–150 ms of a first call (030).
// The code is Ajv's own for the same schema and options, so it checks, coerces, fills in defaults
// and reports errors exactly as a freshly compiled validator does.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

let folder: string | undefined;
let ajvVersion: string | undefined;

/** Keep validators in `dir` from now on (the registry passes its cache folder); undefined: compile in memory only. */
export function keepValidatorsIn(dir: string | undefined): void {
  folder = dir;
}

/** Whether validators are kept on disk: then nothing need be warmed, what was compiled before loads from there. */
export function validatorsKept(): boolean {
  return folder !== undefined;
}

/**
 * The validator of `schema` for `options` (the Ajv options, part of the key): read from the folder
 * when a process compiled it before, else compiled (`compile`, whose Ajv has `code.source` on), and
 * its standalone code written there for the next. A file that cannot be read or run is compiled anew.
 */
export function keptValidator(
  options: object,
  schema: object,
  compile: () => { validate: ValidateFunction; standalone: () => string },
): ValidateFunction {
  if (folder === undefined) return compile().validate;
  const key = createHash('sha256')
    .update(JSON.stringify([versionOfAjv(), options, schema]))
    .digest('hex');
  const path = join(folder, `${key.slice(0, 32)}.cjs`);
  const kept = readKept(path);
  if (kept !== undefined) return kept;
  const { validate, standalone } = compile();
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, standalone());
    renameSync(temporary, path);
  } catch {
    // a read-only cache: only slower next time
  }
  return validate;
}

function readKept(path: string): ValidateFunction | undefined {
  let code: string;
  try {
    code = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    // CommonJS as Ajv writes it: `module.exports = validate…`, its helpers from `ajv/dist/runtime/…`.
    const module = { exports: {} as unknown };
    new Function('module', 'exports', 'require', code)(module, module.exports, require);
    return typeof module.exports === 'function' ? (module.exports as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** Ajv's version, read from its package.json without loading Ajv: code it generated may need its runtime of that version. */
function versionOfAjv(): string {
  if (ajvVersion !== undefined) return ajvVersion;
  try {
    const main = require.resolve('ajv');
    ajvVersion = (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    ajvVersion = 'unknown';
  }
  return ajvVersion;
}
