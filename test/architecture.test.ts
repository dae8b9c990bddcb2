/**
 * Keeps DESIGN.md's one-way flow true as code lands: `core <- spec <- {generators, oracles} <- checks <- runner
 * <- reporters <- cli`, and `reference` depends on `core` and `spec` only (only the runner's start-up and the CLI
 * may import it). The oracles must never reach the reference server: a judge shares no code with what it judges.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const srcRoot = resolve(import.meta.dirname, "../src");

/** For each module, the modules it may import from (itself always allowed). */
const allowed: Record<string, readonly string[]> = {
  core: [],
  spec: ["core"],
  generators: ["core", "spec"],
  oracles: ["core", "spec"],
  checks: ["core", "spec", "generators", "oracles"],
  runner: ["core", "spec", "generators", "oracles", "checks", "reference"],
  reporters: ["core", "spec", "checks", "runner"],
  reference: ["core", "spec"],
  cli: ["core", "spec", "generators", "oracles", "checks", "runner", "reporters", "reference"],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function moduleOf(file: string): string {
  return relative(srcRoot, file).split(sep)[0] ?? "";
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(importPattern)]
    .map((match) => match[1] ?? match[2] ?? "")
    .filter((specifier) => specifier.startsWith("."));
}

const files = sourceFiles(srcRoot);
const edges = files.flatMap((file) =>
  relativeImports(file).map((specifier) => ({
    file: relative(srcRoot, file),
    from: moduleOf(file),
    to: moduleOf(resolve(dirname(file), specifier)),
    specifier,
  })),
);

describe("module dependencies (DESIGN.md one-way flow)", () => {
  it("finds the source tree and its imports", () => {
    expect(files.length).toBeGreaterThan(3);
    expect(edges.length).toBeGreaterThan(0);
  });

  it("every src module is a known one", () => {
    const unknown = [...new Set(files.map(moduleOf))].filter(
      (name) => !(name in allowed) && !name.endsWith(".ts"),
    );
    expect(unknown).toEqual([]);
  });

  it("imports only run one way", () => {
    const violations = edges
      .filter((edge) => edge.from in allowed && edge.to !== edge.from)
      .filter((edge) => !(allowed[edge.from] ?? []).includes(edge.to))
      .map((edge) => `${edge.file} imports ${edge.specifier} (${edge.from} -> ${edge.to})`);
    expect(violations).toEqual([]);
  });

  it("within the runner, only start-up code imports the reference server", () => {
    const runnerToReference = edges.filter((edge) => edge.from === "runner" && edge.to === "reference");
    expect(
      runnerToReference.map((edge) => edge.file).filter((file) => !/start|target|embedded/.test(file)),
    ).toEqual([]);
  });
});
