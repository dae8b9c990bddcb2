/**
 * A command loads only what it uses: `--version` and every `--help` start without the description loader, ajv,
 * fast-check, undici or the reference server, and `spec` without fast-check or the reference server. Each row runs
 * bin/conform.js in a child process whose resolve hook writes every module it resolves.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const bin = join(import.meta.dirname, "..", "..", "bin", "conform.js");
const folder = mkdtempSync(join(tmpdir(), "conform-start-up-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const recorder = join(folder, "recorder.mjs");
writeFileSync(
  recorder,
  `import { registerHooks } from "node:module";
import { writeFileSync } from "node:fs";
const seen = [];
registerHooks({ resolve: (specifier, context, next) => { const found = next(specifier, context); seen.push(found.url); return found; } });
process.on("exit", () => writeFileSync(process.env.CONFORM_TEST_LOADED, seen.join("\\n")));
`,
);

/** The modules `conform <args>` resolved, as URLs. */
function loadedBy(args: readonly string[]): { status: number | null; loaded: string[] } {
  const list = join(folder, `loaded-${args.join("-").replace(/\W/g, "_")}.txt`);
  const result = spawnSync(process.execPath, ["--import", pathToFileURL(recorder).href, bin, ...args], {
    encoding: "utf8",
    env: { ...process.env, CONFORM_TEST_LOADED: list },
    timeout: 60_000,
  });
  return { status: result.status, loaded: readFileSync(list, "utf8").split("\n") };
}

const heavy = {
  "the description loader": /\/node_modules\/@apidevtools\/|\/src\/spec\/load\.ts$/,
  ajv: /\/node_modules\/ajv\//,
  "fast-check": /\/node_modules\/fast-check\//,
  undici: /\/node_modules\/undici\//,
  "the reference server": /\/src\/reference\//,
};

describe("start-up: a command loads only what it uses", () => {
  const commands = [
    "run",
    "serve",
    "spec",
    "cleanup",
    "fuzz",
    "faults",
    "merge-reports",
    "diff",
    "verify",
    "proxy",
  ];
  it.each(["--version", "--help", ...commands.map((command) => `${command} --help`)])(
    "conform %s loads none of the heavy modules",
    (line) => {
      const { status, loaded } = loadedBy(line.split(" "));
      expect(status).toBe(0);
      for (const [name, pattern] of Object.entries(heavy))
        expect(
          loaded.filter((url) => pattern.test(url)),
          name,
        ).toEqual([]);
    },
  );

  it("conform spec loads the description but neither fast-check nor the reference server", () => {
    const { status, loaded } = loadedBy(["spec"]);
    expect(status).toBe(0);
    expect(loaded.some((url) => heavy["the description loader"].test(url))).toBe(true);
    expect(
      loaded.filter((url) => heavy["fast-check"].test(url) || heavy["the reference server"].test(url)),
    ).toEqual([]);
  });
});
