// Which files declare tools in YAML: known by name alone, so that finding them needs neither the
// YAML parser nor the rest of declared-tool-file.ts (about 14 MB of memory where no file is one).

/** True for a file that declares tools in YAML. */
export function isDeclaredToolFile(path: string): boolean {
  return /\.tools\.ya?ml$/.test(path);
}
