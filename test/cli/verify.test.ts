import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.ts";

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../src/reporters/report.schema.json"), "utf8"),
);
const root = mkdtempSync(join(tmpdir(), "conform-verify-cli-"));

describe("conform run --har and conform verify", () => {
  it("writes a run's HAR and judges it with every reporter, report.json valid", async () => {
    const har = join(root, "run.har");
    const ran = await cli([
      "run",
      "--suite",
      "pagination",
      "--reporter",
      "json",
      "--report-dir",
      join(root, "run"),
      "--har",
      har,
    ]);
    expect(ran.code).toBe(0);
    expect(JSON.parse(readFileSync(har, "utf8")).log.entries.length).toBeGreaterThan(0);
    const dir = join(root, "verify");
    const verified = await cli([
      "verify",
      har,
      "--reporter",
      "json,junit,html,markdown",
      "--report-dir",
      dir,
    ]);
    expect(verified.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "latest", "report.json"), "utf8"));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const valid = ajv.validate(schema, report);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(report.suites.map((suite: { id: string }) => suite.id)).toEqual(["verify:run.har"]);
    for (const file of ["junit.xml", "report.html", "summary.md"])
      expect(existsSync(join(dir, "latest", file))).toBe(true);
  });

  it.each([
    [["verify", join(root, "missing.har")], /cannot be read/],
    [
      ["run", "--suite", "pagination", "--har", join(root, "no", "such", "dir", "x.har")],
      /--har: .* cannot be written/,
    ],
  ])("refuses %j with exit 2", async (args, message) => {
    const result = await cli([...args, "--reporter", "json", "--report-dir", join(root, "refused")]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });
});
