/** A copy of the bundled description whose literal path segments are renamed by a table (operationIds kept). */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

/** Writes the renamed copy to a fresh temp folder; answers its file. */
export function renamedDescription(renaming: Readonly<Record<string, string>>): string {
  const document = parse(readFileSync(bundledSpecPath, "utf8")) as { paths: Record<string, unknown> };
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path
        .split("/")
        .map((segment) => renaming[segment] ?? segment)
        .join("/"),
      item,
    ]),
  );
  const file = join(mkdtempSync(join(tmpdir(), "conform-renamed-")), "renamed.yaml");
  writeFileSync(file, stringify(document));
  return file;
}
