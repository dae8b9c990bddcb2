/** Copies of the bundled description changed for a test, written to a temporary file. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

/** The bundled description without the path items at `paths` (a list it no longer offers); answers its file. */
export function descriptionWithout(...paths: readonly string[]): string {
  const document = parse(readFileSync(bundledSpecPath, "utf8")) as { paths: Record<string, unknown> };
  for (const path of paths) {
    if (!(path in document.paths)) throw new Error(`the bundled description has no path ${path}`);
    delete document.paths[path];
  }
  const file = join(mkdtempSync(join(tmpdir(), "conform-without-")), "description.yaml");
  writeFileSync(file, stringify(document));
  return file;
}
