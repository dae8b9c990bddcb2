/**
 * Keeps the one-way flow of ARCHITECTURE.md true as code lands:
 * - `src` modules import only the modules below them (`core <- spec <- {generators, oracles} <- checks <- runner
 *   <- toolkit`, `reporters` on the runner's events, `reference` on `core` and `spec` only, `fault-score` above
 *   runner and reference, `cli` on top). The oracles never reach the reference server: a judge shares no code
 *   with what it judges.
 * - `src/index.ts`, the public API, exposes no reference server, reporter, fault score or CLI.
 * - Suites (`suites/` and the bench's suite) import nothing from `src/` but `src/index.ts`, exactly as a user's
 *   suite does, and no package but fast-check and Node's own.
 * - Suites and src/runner/ hold no path of the API: they find operations in the loaded description.
 * - Only the files listed here start the reference server.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledSpecPath } from "../src/spec/bundled.ts";
import { loadSpec } from "../src/spec/load.ts";

const root = resolve(import.meta.dirname, "..");
const srcRoot = join(root, "src");

/** For each module, the modules it may import from (itself always allowed). */
const allowed: Record<string, readonly string[]> = {
  core: [],
  spec: ["core"],
  generators: ["core", "spec"],
  oracles: ["core", "spec"],
  checks: ["core", "spec", "generators", "oracles"],
  runner: ["core", "spec", "generators", "oracles", "checks", "reference"],
  toolkit: ["core", "spec", "generators", "oracles", "runner"],
  reporters: ["core", "spec", "checks", "runner"],
  reference: ["core", "spec"],
  "fault-score": ["core", "spec", "runner", "reference", "reporters"],
  traffic: ["core", "spec", "oracles", "checks", "runner"],
  cli: [
    "core",
    "spec",
    "generators",
    "oracles",
    "checks",
    "runner",
    "reporters",
    "reference",
    "fault-score",
    "traffic",
  ],
  "index.ts": ["core", "spec", "generators", "oracles", "runner", "toolkit"],
};

/** The only files that start the reference server (import its server module), named one by one. */
const referenceStarters = ["src/runner/target.ts", "src/cli/commands/serve.ts", "bench/server-child.ts"];

/** Files that are suites: they use the public API only. */
const suiteFiles = (files: readonly string[]) =>
  files.filter((file) => file.startsWith(`suites${sep}`) || file === join("bench", "overhead-suite.ts"));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

interface Edge {
  /** The importing file, relative to the repository. */
  readonly file: string;
  readonly specifier: string;
  /** The imported file relative to the repository, for relative specifiers. */
  readonly target: string | undefined;
}

function edgesOf(file: string): Edge[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(importPattern)].map((match) => {
    const specifier = match[1] ?? match[2] ?? "";
    return {
      file: relative(root, file),
      specifier,
      target: specifier.startsWith(".") ? relative(root, resolve(dirname(file), specifier)) : undefined,
    };
  });
}

/** `core`, `runner`, ... for a file under src/ (`index.ts` for the barrel); undefined elsewhere. */
function moduleOf(path: string): string | undefined {
  const parts = path.split(sep);
  return parts[0] === "src" ? parts[1] : undefined;
}

const files = [
  ...sourceFiles(srcRoot),
  ...sourceFiles(join(root, "suites")),
  ...sourceFiles(join(root, "bench")),
].map((file) => relative(root, file));
const edges = files.flatMap((file) => edgesOf(join(root, file)));

describe("module dependencies (ARCHITECTURE.md one-way flow)", () => {
  it("finds the source tree, the suites, the bench and their imports", () => {
    expect(files.filter((file) => moduleOf(file)).length).toBeGreaterThan(3);
    expect(suiteFiles(files).length).toBeGreaterThan(3);
    expect(edges.length).toBeGreaterThan(0);
  });

  it("every src module is a known one", () => {
    const unknown = [...new Set(files.map(moduleOf))].filter(
      (name) => name !== undefined && !(name in allowed),
    );
    expect(unknown).toEqual([]);
  });

  it("imports between src modules only run one way", () => {
    const violations = edges
      .filter((edge) => moduleOf(edge.file) !== undefined && edge.target !== undefined)
      .filter((edge) => {
        const from = moduleOf(edge.file)!;
        const to = moduleOf(edge.target!);
        return to !== undefined && to !== from && !(allowed[from] ?? []).includes(to);
      })
      .map((edge) => `${edge.file} imports ${edge.specifier}`);
    expect(violations).toEqual([]);
  });

  it("suites import nothing from src/ but src/index.ts, and no package but fast-check and node:*", () => {
    const violations = edges
      .filter((edge) => suiteFiles([edge.file]).length > 0)
      .filter((edge) => {
        if (edge.target === undefined)
          return !(edge.specifier === "fast-check" || edge.specifier.startsWith("node:"));
        if (edge.target.startsWith(`src${sep}`)) return edge.target !== join("src", "index.ts");
        return !edge.target.startsWith(`suites${sep}`) && !edge.target.startsWith(`bench${sep}`);
      })
      .map((edge) => `${edge.file} imports ${edge.specifier}`);
    expect(violations).toEqual([]);
  });

  it("only the listed files start the reference server", () => {
    const starters = edges
      .filter((edge) => edge.target === join("src", "reference", "server.ts"))
      .map((edge) => edge.file.split(sep).join("/"))
      .filter((file) => !file.startsWith("src/reference/"));
    expect([...new Set(starters)].sort()).toEqual([...referenceStarters].sort());
  });

  it("the bench measures through the library, never the CLI's internals", () => {
    const violations = edges
      .filter((edge) => edge.file.startsWith(`bench${sep}`) && edge.target !== undefined)
      .filter((edge) => moduleOf(edge.target!) === "cli")
      .map((edge) => `${edge.file} imports ${edge.specifier}`);
    expect(violations).toEqual([]);
  });

  it.each([
    ["suites", () => suiteFiles(files)],
    // Cleanup and leftovers find collections and deletes in the description (`resourcesOf`), on any edition.
    ["src/runner/", () => files.filter((file) => file.split(sep).slice(0, 2).join("/") === "src/runner")],
  ])("%s write no path of the API: operations are found in the loaded description", async (_name, chosen) => {
    const spec = await loadSpec(bundledSpecPath);
    const segments = new Set(
      spec.operations.all().map((operation) => operation.pathTemplate.split("/").filter(Boolean)[0]!),
    );
    // A quote or backtick, then `/<first segment of any path>` followed by `/`, `?` or the end of the literal.
    const literal = new RegExp(`["'\`]/(?:${[...segments].join("|")})(?=[/?"'\`])`);
    const violations = chosen().flatMap((file) =>
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .map((line, index) => ({ line: line.trim(), at: `${file}:${index + 1}` }))
        .filter(({ line }) => literal.test(line) && !/^(?:\/?\*|\/\/)/.test(line))
        .map(({ line, at }) => `${at}: ${line}`),
    );
    expect(segments.size).toBeGreaterThan(3);
    expect(chosen().length).toBeGreaterThan(3);
    expect(violations).toEqual([]);
  });
});

/** Every chain of imports that leads from a file of src/ back to it, type-only imports included. */
function importCycles(): string[] {
  const graph = new Map<string, string[]>();
  for (const edge of edges)
    if (moduleOf(edge.file) && edge.target?.endsWith(".ts"))
      graph.set(edge.file, [...(graph.get(edge.file) ?? []), edge.target]);
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next].join(" -> "));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe("no import cycle in src/", () => {
  it("no file of src/ imports itself through others (a type-only import counts: types live in contract modules)", () => {
    expect(importCycles()).toEqual([]);
  });
});
