/**
 * Where the package's own files are (package.json, the bundled description, docs/faults.md), the same from the sources
 * and from the build: the checkout runs `src/`, an installed package runs `dist/src/`, the build being the checkout's
 * tree one folder down (`dist/src`, `dist/suites`), so this module's own extension says how far the root is.
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** True when this process runs the compiled package (`dist/`), false when it runs the TypeScript sources. */
export const runsFromBuild: boolean = import.meta.url.endsWith(".js");

const packageRoot = new URL(runsFromBuild ? "../../../" : "../../", import.meta.url);

/** The absolute path of a file of the package, given relative to its root (`specs/cloud-api-v4.yaml`). */
export function packagePath(relative: string): string {
  return fileURLToPath(new URL(relative, packageRoot));
}

/** The package's name and version, from its package.json. */
export const packageManifest: { readonly name: string; readonly version: string } = JSON.parse(
  readFileSync(packagePath("package.json"), "utf8"),
);
