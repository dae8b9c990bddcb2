/**
 * The API's conventions come from the loaded description: an edition that documents no `X-Spec-Version` (or no
 * `X-Accepted-OAuth-Scopes`) does not promise it, so a target leaving it off is not failed for it. The checks skip
 * with the reason, the suites' header assertions are logged as not judged and the versioning suite's header case is
 * skipped, saying why; the bundled description still fails the same target.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { CaseFinished } from "../../src/core/events.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { runSuites } from "../helpers/run-suites.ts";

/** The bundled description with `header` removed wherever it is documented. */
function withoutHeader(header: string): string {
  const strip = (value: unknown, underHeaders: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => strip(item, false));
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !(underHeaders && key === header))
        .map(([key, item]) => [key, strip(item, key === "headers")]),
    );
  };
  const document = strip(parse(readFileSync(bundledSpecPath, "utf8")), false);
  const file = join(mkdtempSync(join(tmpdir(), "conform-headers-")), "no-spec-version.yaml");
  writeFileSync(file, stringify(document));
  return file;
}

const specVersionCase = (events: readonly { type: string }[]) =>
  events.find(
    (event): event is CaseFinished =>
      event.type === "case-finished" && (event as CaseFinished).caseId === "spec-version",
  );

describe("a description that documents no X-Accepted-OAuth-Scopes", () => {
  it("gets no header assertion of the auth suite failed on a target that sends none, each logged as not judged", async () => {
    const run = await runSuites({
      specPath: withoutHeader("X-Accepted-OAuth-Scopes"),
      suites: ["auth"],
      faults: ["accepted-scopes-header-missing"],
    });
    expect(run.failedChecks).toEqual(new Set());
    expect(run.finished.exitCode).toBe(0);
    const logs = run.events.flatMap((event) =>
      event.type === "case-finished" ? ((event as CaseFinished).logs ?? []) : [],
    );
    expect(
      logs.some((line) =>
        /X-Accepted-OAuth-Scopes not judged: the 200 answer of \w+ documents no X-Accepted-OAuth-Scopes header/.test(
          line,
        ),
      ),
    ).toBe(true);
  });

  it("while the bundled description, which documents it, fails the same target", async () => {
    const run = await runSuites({ suites: ["auth"], faults: ["accepted-scopes-header-missing"] });
    expect(run.failedChecks).toContain("assert:X-Accepted-OAuth-Scopes names the needed scope");
  });
});

describe("a description that documents no X-Spec-Version", () => {
  it("gets the header's check and case skipped with the reason, not failed, on a target that sends none", async () => {
    const run = await runSuites({
      specPath: withoutHeader("X-Spec-Version"),
      suites: ["versioning"],
      faults: ["spec-version-missing"],
    });
    expect(run.failedChecks).toEqual(new Set());
    expect(run.finished.exitCode).toBe(0);
    expect(specVersionCase(run.events)?.skipReason).toBe(
      "the description documents no X-Spec-Version header on the API's answers",
    );
    const reasons = run.events.flatMap((event) =>
      event.type === "case-finished"
        ? (event as CaseFinished).results
            .filter((result) => result.checkId === "spec-version-header")
            .map((result) =>
              result.outcome.status === "skipped" ? result.outcome.reason : result.outcome.status,
            )
        : [],
    );
    expect(new Set(reasons)).toEqual(
      new Set(["the description documents no X-Spec-Version header on the API's answers"]),
    );
  });

  it("while the bundled description, which documents it, fails the same target", async () => {
    const run = await runSuites({ suites: ["versioning"], faults: ["spec-version-missing"] });
    expect(run.finished.exitCode).toBe(1);
    expect(run.failedChecks).toContain("spec-version-header");
    expect(specVersionCase(run.events)?.status).toBe("failed");
  });
});
