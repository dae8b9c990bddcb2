/**
 * Report files: each is written whole to a temporary name and renamed into place, so a reader (or the `latest`
 * mirror) never sees half a file. A run's reports go to `<reportDir>/<runId>/`; `writeLatest` then mirrors that
 * directory to `<reportDir>/latest/`, replacing the previous run's mirror as a whole (no stale file of an earlier
 * run's reporter survives next to this run's). Files are created readable by their owner only (0600), directories
 * 0700; the mirror keeps those modes.
 * @module
 */
import { renameSync, writeFileSync } from "node:fs";
import { copyFile, cp, open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { makeDirectory, makeDirectorySync } from "../core/directories.ts";

/** The directory name of the mirror of the most recent run, beside the runs' own directories. */
export const latestDirName = "latest";

let temporaries = 0;

function temporaryName(path: string): string {
  temporaries += 1;
  return join(dirname(path), `.${basename(path)}.${process.pid}.${temporaries}.tmp`);
}

/**
 * Writes a report file atomically. `content` may be a string or chunks (written as they come, so a large report is
 * never one string in memory). Returns the file's path.
 */
export async function writeReportFile(
  outputDir: string,
  name: string,
  content: string | Iterable<string>,
): Promise<string> {
  await makeDirectory(outputDir);
  const path = join(outputDir, name);
  const temporary = temporaryName(path);
  // Readable by the owner only: a report holds a target's answers, which a redaction may have missed.
  const handle = await open(temporary, "w", 0o600);
  try {
    if (typeof content === "string") await handle.write(content);
    else {
      let buffer = "";
      for (const chunk of content) {
        buffer += chunk;
        if (buffer.length >= 64 * 1024) {
          await handle.write(buffer);
          buffer = "";
        }
      }
      if (buffer) await handle.write(buffer);
    }
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, path);
  return path;
}

/** `<reportDir>/latest` for a run directory `<reportDir>/<runId>`. */
/**
 * The same, synchronously: for a process about to exit at once (a second signal), where no promise will settle.
 * Written whole to a temporary file, then renamed.
 */
export function writeReportFileSync(outputDir: string, name: string, content: Iterable<string>): string {
  makeDirectorySync(outputDir);
  const path = join(outputDir, name);
  const temporary = temporaryName(path);
  writeFileSync(temporary, [...content].join(""), { mode: 0o600 });
  renameSync(temporary, path);
  return path;
}

export function latestDirOf(outputDir: string): string {
  return join(dirname(resolve(outputDir)), latestDirName);
}

/**
 * Mirrors the run's directory to `<reportDir>/latest/`: copies it to a staging directory, then swaps that in for
 * the old mirror. Returns the mirror's path, or undefined when the run wrote no directory (console only) or the
 * run directory is itself `latest`.
 */
export async function writeLatest(
  outputDir: string,
  latestDir = latestDirOf(outputDir),
): Promise<string | undefined> {
  const source = resolve(outputDir);
  const target = resolve(latestDir);
  if (source === target) return undefined;
  const found = await stat(source).catch(() => undefined);
  if (!found?.isDirectory()) return undefined;
  temporaries += 1;
  const staging = join(dirname(target), `.${basename(target)}.${process.pid}.${temporaries}.tmp`);
  await cp(source, staging, { recursive: true, filter: (path) => !path.endsWith(".tmp") });
  try {
    for (let attempt = 0; ; attempt += 1) {
      await rm(target, { recursive: true, force: true });
      try {
        await rename(staging, target);
        break;
      } catch (error) {
        // Another run mirrored in between our rm and rename: take its place (last one wins), once more at most.
        const code = (error as NodeJS.ErrnoException).code;
        if (attempt >= 2 || (code !== "ENOTEMPTY" && code !== "EEXIST")) throw error;
      }
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return target;
}

/**
 * Refreshes named files of a mirror this run already made (a snapshot after the first): each is copied to a
 * temporary name in the mirror and renamed over its old copy, so a reader of `latest/report.json` never finds it
 * missing or half written, as it could while `writeLatest` swaps the whole directory.
 */
export async function refreshLatest(
  outputDir: string,
  files: readonly string[],
  latestDir = latestDirOf(outputDir),
): Promise<string> {
  const target = resolve(latestDir);
  for (const file of files) {
    const path = join(target, file);
    const temporary = temporaryName(path);
    await copyFile(join(outputDir, file), temporary);
    await rename(temporary, path);
  }
  return target;
}
