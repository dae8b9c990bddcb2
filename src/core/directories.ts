/**
 * Creating a directory and its missing parents, one level at a time. Node's own `mkdir(path, { recursive: true })`
 * spins for ever where a parent refuses new entries but says they do not exist (`/proc/self/x`: ENOENT on every
 * try); here each missing level is made once and the first refusal is thrown as it is.
 * @module
 */
import { mkdirSync, statSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** The levels of `path` that do not exist yet, outermost first (at most one per path segment). */
function missingLevels(path: string, exists: (level: string) => boolean): string[] {
  const missing: string[] = [];
  let level = resolve(path);
  while (!exists(level)) {
    missing.unshift(level);
    const parent = dirname(level);
    if (parent === level) break;
    level = parent;
  }
  return missing;
}

const notFound = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

function existsSync(level: string): boolean {
  try {
    statSync(level);
    return true;
  } catch (error) {
    if (notFound(error)) return false;
    throw error;
  }
}

/** Creates `path` and its missing parents with `mode`; throws the first refusal (ENOENT, ENOTDIR, EACCES...). */
export function makeDirectorySync(path: string, mode = 0o700): void {
  for (const level of missingLevels(path, existsSync)) {
    try {
      mkdirSync(level, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/** {@link makeDirectorySync}, without blocking for the creations. */
export async function makeDirectory(path: string, mode = 0o700): Promise<void> {
  // The walk up is a few stats of the path's own levels: done synchronously, it needs no async recursion.
  for (const level of missingLevels(path, existsSync)) {
    try {
      await mkdir(level, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  // A file where the directory should be: say so as mkdir would.
  if (!(await stat(path)).isDirectory())
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: "ENOTDIR" });
}
