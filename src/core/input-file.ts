/**
 * Reading an input file the user named (a config, a description, a report, a recording) with a bound: only a
 * regular file is opened (a FIFO would block the open, a device such as /dev/zero never ends), and at most
 * `maxBytes` are read whatever its size says (files under /proc say 0 and go on; a file may grow while read).
 * Every refusal is one line naming the file and what it is for; the caller turns it into its own error class.
 * @module
 */
import { closeSync, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** Bounds of the inputs, by kind: far above any real one, far below what would take the machine. */
export const inputLimits = Object.freeze({
  config: 1024 * 1024,
  description: 32 * 1024 * 1024,
  report: 128 * 1024 * 1024,
  recording: 256 * 1024 * 1024,
  pem: 1024 * 1024,
});

/** Why an input file was refused, in one line (no stack: the caller wraps it as a ConfigError or SpecLoadError). */
export class InputFileRefused extends Error {}

const mebibytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** What kind of thing a non-regular file is, for the refusal. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Checks that `path` is a regular file of at most `maxBytes` without opening it (so a FIFO cannot block).
 * @throws InputFileRefused saying why not.
 */
export function checkInputFile(path: string, maxBytes: number): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw new InputFileRefused(
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`,
    );
  }
  if (!stats.isFile()) throw new InputFileRefused(`is ${kindOf(stats)}, not a file`);
  if (stats.size > maxBytes)
    throw new InputFileRefused(
      `is ${mebibytes(stats.size)}, above the ${mebibytes(maxBytes)} an input may be`,
    );
}

/**
 * The text of a regular file of at most `maxBytes` (UTF-8).
 * @throws InputFileRefused when it is not a regular file, cannot be read, or holds more than `maxBytes`.
 */
export function readInputFile(path: string, maxBytes: number): string {
  checkInputFile(path, maxBytes);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new InputFileRefused(
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`,
    );
  }
  try {
    // Swapped for something else between the stat and the open: judge what was opened.
    if (!fstatSync(fd).isFile()) throw new InputFileRefused("is not a regular file");
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes)
        throw new InputFileRefused(`holds more than the ${mebibytes(maxBytes)} an input may be`);
    }
    return Buffer.concat(chunks, total).toString("utf8");
  } catch (error) {
    if (error instanceof InputFileRefused) throw error;
    throw new InputFileRefused(
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`,
    );
  } finally {
    closeSync(fd);
  }
}
