/**
 * The examples of the README and of the pages under docs/ that need no network run as printed. A fenced block
 * preceded by a marker comment is part of this test:
 * - `<!-- readme-test: run in checkout -->`: a `sh` block run by bash in the checkout;
 * - `<!-- readme-test: file NAME -->`: the block is saved as NAME in a fresh empty folder elsewhere;
 * - `<!-- readme-test: run in folder -->`: a `sh` block run by bash in that folder, `$CONFORM` naming the checkout.
 * Each must exit 0. Only loopback is used: the commands run against the embedded reference server.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const checkout = join(import.meta.dirname, "..");
const docs = readdirSync(join(checkout, "docs"), { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".md"))
  .sort()
  .map((name) => join("docs", name));
/** The README first, then the docs' pages: a `file` block is saved before a later page's block runs it. */
const readme = ["README.md", ...docs].map((file) => readFileSync(join(checkout, file), "utf8")).join("\n");

interface Example {
  readonly marker: string;
  readonly body: string;
}

/** Every marked block of a Markdown text, in order. */
function markedBlocks(text: string): Example[] {
  const pattern = /<!-- readme-test: ([^>]*?) -->\n```[a-z]*\n([\s\S]*?)\n```/g;
  return [...text.matchAll(pattern)].map((match) => ({ marker: match[1]!.trim(), body: match[2]! }));
}

/** The environment of a person's shell: none of the npm variables of the `npm test` running this file. */
function personEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name)),
  );
  return { ...env, ...extra };
}

describe("the README's examples", () => {
  const examples = markedBlocks(readme);

  it("marks the examples this test runs", () => {
    expect(examples.map((example) => example.marker)).toEqual(
      expect.arrayContaining(["run in checkout", "file my-regions.suite.ts", "run in folder"]),
    );
    expect(
      examples.every((example) => /^(run in checkout|run in folder|file [\w.-]+)$/.test(example.marker)),
    ).toBe(true);
  });

  it("run as printed, exit 0 (the suite example from an empty folder elsewhere)", () => {
    const folder = mkdtempSync(join(tmpdir(), "conform-readme-"));
    for (const { marker, body } of examples) {
      if (marker.startsWith("file ")) {
        writeFileSync(join(folder, marker.slice("file ".length)), `${body}\n`);
        continue;
      }
      const result = spawnSync("bash", ["-euo", "pipefail", "-c", body], {
        cwd: marker === "run in checkout" ? checkout : folder,
        env: personEnv({ CONFORM: checkout }),
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(result.status, `${marker}:\n${body}\n${result.stdout}${result.stderr}`).toBe(0);
      if (body.includes("--suite my-regions")) expect(result.stdout).toMatch(/✓ PASSED {2}1 passed/);
    }
  }, 240_000);
});
