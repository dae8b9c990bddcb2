/**
 * Suites read as declarations (issue 32): every suite file, and every support module beside them, fits in one
 * sitting (at most 300 lines), and what cases share goes through typed keys: no `as` cast on `t.shared`, no
 * string key, anywhere a suite or the toolkit reads it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const maxLines = 300;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const suiteFiles = filesUnder(join(root, "suites"));
const sharedReaders = [...suiteFiles, ...filesUnder(join(root, "src"))];

describe("suites as declarations", () => {
  it("has suite files to judge", () => {
    expect(suiteFiles.filter((file) => file.endsWith(".suite.ts")).length).toBeGreaterThan(5);
  });

  it(`keeps every suite file and support module within ${maxLines} lines`, () => {
    const long = suiteFiles
      .map((file) => [relative(root, file), readFileSync(file, "utf8").trimEnd().split("\n").length] as const)
      .filter(([, lines]) => lines > maxLines);
    expect(long).toEqual([]);
  });

  it("reads t.shared by typed key only: no cast, no string key", () => {
    const untyped = /\bshared\.(?:get|set|has|delete)\(\s*["'`]|\bshared\.get\([^()]*\)\s+as\s/;
    const found = sharedReaders.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          untyped.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
