/**
 * Finds suite files (`*.suite.ts`, `.suite.js`, `.suite.mjs`) under the project's `suites/` and any paths the user
 * names, imports them and checks what they export. A file that fails to load stops the run (exit 2) with the
 * file and the reason: a suite silently missing would be a check silently skipped.
 * A suite file anywhere on disk imports the suite API by the package's name (`import { defineSuite } from
 * "cloud-api-conformance"`): a resolve hook, registered before the first suite loads, maps that name to the suite
 * API this runner uses (the checkout's `src/index.ts`, an installed package's `dist/src/index.js`), so a suite needs
 * no install beside it and shares the runner's modules. A `.ts` file of the user's (a suite, a helper it imports) is
 * loaded as an ES module, as the README's example is written: a project whose package.json says `"type":
 * "commonjs"` (what `npm init -y` writes) would otherwise refuse its `import` lines (`.cts` stays CommonJS).
 * @module
 */
import { readdirSync, statSync } from "node:fs";
import { registerHooks } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SuiteLoadError } from "../core/errors.ts";
import { packageManifest, runsFromBuild } from "../core/package-files.ts";
import type { Suite } from "./suite-api.ts";

/** The built-in suites: `suites/` in the checkout, `dist/suites/` (compiled) in an installed package. */
export const projectSuitesDir = fileURLToPath(new URL("../../suites/", import.meta.url));

const suiteFile = /\.suite\.(ts|mts|js|mjs)$/;

/** The name suites import the suite API by: the package's own (package.json `name`, whose `exports` agree). */
export const packageName: string = packageManifest.name;
/** The suite API this runner uses (the sources' or the build's), so a suite's `defineSuite` is the runner's own. */
const suiteApiUrl = new URL(runsFromBuild ? "../index.js" : "../index.ts", import.meta.url).href;
let suiteApiHooked = false;

/** Lets any file import the suite API by the package's name, and loads the user's `.ts` files as ES modules (once per process). */
function hookSuiteApi(): void {
  if (suiteApiHooked) return;
  suiteApiHooked = true;
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      specifier === packageName ? { url: suiteApiUrl, shortCircuit: true } : nextResolve(specifier, context),
    load: (url, context, nextLoad) =>
      context.format === "commonjs-typescript" && url.endsWith(".ts") && !url.includes("/node_modules/")
        ? nextLoad(url, { ...context, format: "module-typescript" })
        : nextLoad(url, context),
  });
}

/** Why a file failed to load, with the way out when a CommonJS package.json refused its `import` lines. */
function loadFailure(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  return /Cannot use import statement outside a module/.test(message)
    ? `${message} (the nearest package.json says "type": "commonjs": name the file .mjs, or set "type": "module")`
    : message;
}

function filesUnder(path: string): string[] {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    throw new SuiteLoadError(`suite path ${path} does not exist`);
  }
  if (stats.isFile()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = join(path, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(full);
      return suiteFile.test(entry.name) ? [full] : [];
    });
}

function isSuite(value: unknown): value is Suite {
  const suite = value as Suite;
  return (
    typeof suite === "object" && suite !== null && typeof suite.id === "string" && Array.isArray(suite.cases)
  );
}

export interface DiscoveredSuite {
  readonly suite: Suite;
  readonly file: string;
}

/** Loads every suite of the project and of `extraPaths`, in a stable order; ids must be unique. */
export async function discoverSuites(
  extraPaths: readonly string[],
  includeProject = true,
): Promise<DiscoveredSuite[]> {
  const roots = [...(includeProject ? [projectSuitesDir] : []), ...extraPaths.map((path) => resolve(path))];
  const files = [...new Set(roots.flatMap(filesUnder))];
  const found: DiscoveredSuite[] = [];
  hookSuiteApi();
  const byId = new Map<string, string>();
  for (const file of files) {
    let module: { default?: unknown };
    try {
      module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    } catch (error) {
      throw new SuiteLoadError(`suite file ${file} failed to load: ${loadFailure(error)}`, {
        cause: error,
      });
    }
    if (!isSuite(module.default)) {
      throw new SuiteLoadError(`suite file ${file} must export a suite as default (use defineSuite)`);
    }
    const suite = module.default;
    const other = byId.get(suite.id);
    if (other) throw new SuiteLoadError(`suite id "${suite.id}" is used by both ${other} and ${file}`);
    byId.set(suite.id, file);
    found.push({ suite, file });
  }
  return found;
}
