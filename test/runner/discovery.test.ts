/**
 * Suite files as a user's project holds them, loaded by the CLI in a child process (Node's own loader: the test
 * runner's would hide what a package.json says). `npm init -y` writes `"type": "commonjs"`: the README's suite,
 * saved there, must still load.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const checkout = join(import.meta.dirname, "..", "..");
const bin = join(checkout, "bin", "conform.js");
/** The README's own suite example, as a user copies it. */
const readmeSuite = /<!-- readme-test: file my-regions\.suite\.ts -->\n```ts\n([\s\S]*?)\n```/.exec(
  readFileSync(join(checkout, "README.md"), "utf8"),
)?.[1];

function commonjsProject(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), "conform-discovery-"));
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "proj", type: "commonjs" }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

function listSuite(folder: string, file: string, suite: string) {
  return spawnSync(
    process.execPath,
    [bin, "run", "--suite-path", join(folder, file), "--suite", suite, "--list"],
    {
      cwd: folder,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
}

describe("suite discovery in a CommonJS project", () => {
  it("loads the README's .suite.ts where package.json says type commonjs", () => {
    expect(readmeSuite).toBeDefined();
    const folder = commonjsProject({ "my-regions.suite.ts": readmeSuite ?? "" });
    const result = listSuite(folder, "my-regions.suite.ts", "my-regions");
    expect(result.stderr).not.toMatch(/Failed to load the ES module|SUITE_LOAD/);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("has-ours");
  });

  it("loads a .ts helper that a suite imports there", () => {
    const folder = commonjsProject({
      "helper.ts": `import { sharedKey } from "cloud-api-conformance";\nexport const key = sharedKey<string>("k");\n`,
      "uses-helper.suite.ts": `import { defineSuite } from "cloud-api-conformance";\nimport { key } from "./helper.ts";\nexport default defineSuite({ id: "uses-helper", title: String(key), tags: [], cases: [{ id: "c", title: "c", run: () => {} }] });\n`,
    });
    const result = listSuite(folder, "uses-helper.suite.ts", "uses-helper");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("names the way out when a .suite.js with import lines is refused as CommonJS (exit 2)", () => {
    const folder = commonjsProject({
      "plain.suite.js": `import { defineSuite } from "cloud-api-conformance";\nexport default defineSuite({ id: "plain", title: "p", cases: [] });\n`,
    });
    const result = listSuite(folder, "plain.suite.js", "plain");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/\[SUITE_LOAD\]/);
    expect(result.stderr).toMatch(/name the file \.mjs, or set "type": "module"/);
  });
});
