import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import {
  faultMatrixMarkdown,
  readmeEndMarker,
  readmeStartMarker,
  withFaultTable,
  writeFaultMatrix,
} from "../../src/fault-score/matrix-report.ts";
import { faultRow, observe, runFaultMatrix } from "../../src/fault-score/score.ts";
import { faultRegistry } from "../../src/reference/faults/index.ts";
import { runConfigDefaults } from "../../src/runner/config.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

const exchange = { type: "exchange" } as RunEvent;
const failedCheck = (checkId: string) =>
  ({
    type: "check",
    result: { checkId, exchangeId: 1, outcome: { status: "failed", message: "x" } },
  }) as RunEvent;
const passedCheck = {
  type: "check",
  result: { checkId: "a", exchangeId: 1, outcome: { status: "passed" } },
} as RunEvent;
const caseFinished = (suiteId: string, status: string) =>
  ({ type: "case-finished", suiteId, caseId: "c", status, results: [] }) as unknown as RunEvent;
const fault = {
  id: "f",
  description: "breaks x",
  detectedBy: { suites: ["headers"], checks: ["spec-version-header"] },
};

describe("fault matrix: reading a run", () => {
  it.each([
    [
      "caught by its claimed suite and check",
      [
        exchange,
        passedCheck,
        exchange,
        failedCheck("spec-version-header"),
        caseFinished("headers", "failed"),
      ],
      { caught: true, missingChecks: [], requestsToDetection: 2, requests: 2, suites: ["headers"] },
    ],
    [
      "caught, but not by the claimed check",
      [exchange, failedCheck("assert:other"), caseFinished("headers", "failed")],
      {
        caught: true,
        missingChecks: ["spec-version-header"],
        requestsToDetection: 1,
        requests: 1,
        suites: ["headers"],
      },
    ],
    [
      "escaped: only another suite failed",
      [exchange, exchange, caseFinished("auth", "errored")],
      {
        caught: false,
        missingChecks: ["spec-version-header"],
        requestsToDetection: 2,
        requests: 2,
        suites: ["auth"],
      },
    ],
    [
      "escaped: nothing failed",
      [exchange, passedCheck, caseFinished("headers", "passed")],
      {
        caught: false,
        missingChecks: ["spec-version-header"],
        requestsToDetection: null,
        requests: 1,
        suites: [],
      },
    ],
  ])("%s", (_name, events, expected) => {
    const row = faultRow(fault, observe(events), 5);
    expect({
      caught: row.caught,
      missingChecks: row.missingChecks,
      requestsToDetection: row.requestsToDetection,
      requests: row.requests,
      suites: row.caughtBy.suites,
    }).toEqual(expected);
  });
});

describe("fault matrix: a selection's row", () => {
  it.each([
    ["caught by any selected suite, claimed or not", ["auth", "lists"], true],
    ["escaped when the failed suite is not among the selected", ["lists"], false],
  ])("%s", (_name, selected, caught) => {
    const row = faultRow(fault, observe([exchange, caseFinished("auth", "failed")]), 5, selected);
    expect(row.caught).toBe(caught);
    expect(row.expected.suites).toEqual(["headers"]);
  });
});

describe("fault matrix: a real run", () => {
  it("a selection's row counts the checks judged at the run's end, as `conform run` with it reports them", async () => {
    const matrix = await runFaultMatrix({
      runId: "20261128T000000Z-faults",
      config: {
        ...runConfigDefaults,
        specPath: bundledSpecPath,
        seed: 1,
        suites: ["operations", "lifecycles"],
      },
      faults: ["write-without-event"],
      toolVersion: "test",
      signal: new AbortController().signal,
    });
    const [row] = matrix.rows;
    expect(row?.caughtBy.suites).toEqual(["checks-at-run-end"]);
    expect(row?.caught).toBe(true);
    expect(matrix.clean.passed).toBe(true);
  });

  it("catches two header faults with their claimed suites, passes clean, and writes a valid record", async () => {
    const matrix = await runFaultMatrix({
      runId: "20261123T000000Z-faults",
      config: { ...runConfigDefaults, specPath: bundledSpecPath, seed: 1, suites: ["headers", "versioning"] },
      faults: ["content-type-wrong", "spec-version-missing"],
      toolVersion: "test",
      signal: new AbortController().signal,
    });
    expect(matrix.rows.map((row) => [row.id, row.caught])).toEqual([
      ["content-type-wrong", true],
      ["spec-version-missing", true],
    ]);
    expect(matrix).toMatchObject({ score: { caught: 2, total: 2 }, exitCode: 0, clean: { passed: true } });
    const dir = join(mkdtempSync(join(tmpdir(), "conform-faults-")), "run");
    const written = JSON.parse(readFileSync(await writeFaultMatrix(dir, matrix), "utf8"));
    const ajv = new Ajv2020({ allErrors: true });
    addFormats.default(ajv);
    const schema = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../src/fault-score/fault-matrix.schema.json"), "utf8"),
    );
    expect(ajv.validate(schema, written) ? [] : ajv.errors).toEqual([]);
    expect(faultMatrixMarkdown(matrix)).toContain("| `content-type-wrong` |");
  });

  it("refuses an unknown fault by name", async () => {
    await expect(
      runFaultMatrix({
        runId: "x",
        config: { ...runConfigDefaults, specPath: bundledSpecPath },
        faults: ["no-such-fault"],
        toolVersion: "test",
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(/unknown fault no-such-fault/);
  });
});

describe("the fault table of docs/faults.md", () => {
  const readme = readFileSync(join(import.meta.dirname, "../../docs/faults.md"), "utf8");
  const table = readme.slice(readme.indexOf(readmeStartMarker), readme.indexOf(readmeEndMarker));

  it("lists every registered fault, and only those (regenerate with npm run faults -- --update-docs)", () => {
    const listed = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]).sort();
    expect(listed).toEqual([...faultRegistry.keys()].sort());
  });

  it("is replaced whole by a new matrix", () => {
    const replaced = withFaultTable(`a\n${readmeStartMarker}\nold\n${readmeEndMarker}\nb`, {
      rows: [],
      score: { caught: 0, total: 0 },
      clean: { passed: true, falseAlarms: [] },
      seed: 1,
      full: false,
    } as never);
    expect(replaced).not.toContain("old");
    expect(replaced.startsWith("a\n")).toBe(true);
    expect(replaced.endsWith(`${readmeEndMarker}\nb`)).toBe(true);
  });
});
