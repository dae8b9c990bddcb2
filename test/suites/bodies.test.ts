/**
 * The body suites (`invalid-bodies`, `valid-bodies`) through the real runner against the embedded reference
 * server: green when it is clean, red with each body fault, failing the suite and the assertions or checks the
 * fault names in its `detectedBy`.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Generated, mutationsOf } from "../../src/index.ts";
import { faultRegistry } from "../../src/reference/faults/index.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { descriptionWithout } from "../helpers/descriptions.ts";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

const suites = ["invalid-bodies", "valid-bodies"];

describe("body suites", () => {
  it("pass against the clean reference, every case run, everything they made deleted", async () => {
    const run = await runSuites({ suites });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const cases = run.events.flatMap((event) => (event.type === "case-finished" ? [event] : []));
    expect(cases.filter((event) => event.status !== "passed").map((event) => event.caseId)).toEqual([]);
    expect(cases.length).toBe(11);
    expect(run.finished.cleanup.failed).toEqual([]);
    expect(run.finished.cleanup.deleted).toBeGreaterThan(10);
  });

  it("find their operations by operationId and their fixtures through the lists: the same cases and verdicts when the description's paths are renamed (the regions list too)", async () => {
    const specPath = join(tmpdir(), `conform-bodies-renamed-${process.pid}.yaml`);
    const text = readFileSync(bundledSpecPath, "utf8")
      .replaceAll("/compute/", "/linode/")
      .replaceAll("/regions", "/zones")
      .replaceAll("/nodebalancers", "/balancers");
    writeFileSync(specPath, text);
    const verdicts = (run: Awaited<ReturnType<typeof runSuites>>) =>
      run.events.flatMap((event) =>
        event.type === "case-finished"
          ? [`${event.suiteId}/${event.caseId} ${event.status} ${event.exchangeCount}`]
          : [],
      );
    const bundled = await runSuites({ suites });
    const renamed = await runSuites({ suites, specPath }).finally(() => rmSync(specPath, { force: true }));
    expect(renamed.problems, describeProblems(renamed)).toEqual([]);
    expect(verdicts(renamed).sort()).toEqual(verdicts(bundled).sort());
  });

  it("on a description without a regions list, the cases needing a made resource skip naming the fixture lacked, and none fails", async () => {
    const run = await runSuites({ suites, specPath: descriptionWithout("/regions") });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const lacking = "no list in the description offers a `region` for POST /nodebalancers's body";
    const skipped = run.events.flatMap((event) =>
      event.type === "case-finished" && event.status === "skipped" ? [[event.caseId, event.skipReason]] : [],
    );
    expect(Object.fromEntries(skipped)).toMatchObject({
      fixtures: `${lacking}: the resources the bodies write against are not made`,
      "https-without-key": `the fixtures hold no load balancer: ${lacking}`,
      "weak-root-pass": `the fixtures hold no region: ${lacking}`,
    });
    // What needs no made resource (the OAuth clients, the profile) still gets its bodies.
    const passed = run.events.flatMap((event) =>
      event.type === "case-finished" && event.status === "passed" ? [`${event.suiteId}/${event.caseId}`] : [],
    );
    expect(passed).toEqual(
      expect.arrayContaining(["valid-bodies/accepted-and-read-back", "invalid-bodies/one-rule"]),
    );
    expect(run.finished.cleanup.failed).toEqual([]);
  });

  it("a failure carries its shrunk counterexample, seed and replay, and the same seed reproduces it exactly", async () => {
    const reproduce = async () => {
      const run = await runSuites({ suites: ["invalid-bodies"], faults: ["error-field-missing"], seed: 5 });
      const oneRule = run.problems.find((event) => event.caseId === "one-rule");
      return oneRule?.reproduction;
    };
    const first = await reproduce();
    expect(first).toBeDefined();
    expect(first!.seed).toBeTypeOf("number");
    expect(first!.path).toMatch(/^\d+(:\d+)*$/);
    expect(first!.replay).toMatch(
      /^conform fuzz bodies --seed 5 --runs 4 --property invalid-bodies\/one-rule\/\S+ --path /,
    );
    expect(first!.replay!.endsWith(` --path ${first!.path}`)).toBe(true);
    const counterexample = first!.counterexample as Generated<unknown>;
    expect(counterexample.meta.mode).toBe("negative");
    expect(mutationsOf(counterexample.meta)[0]!.field).toBeTypeOf("string");
    // Shrunk: the body holds little beyond the one broken field.
    expect(Object.keys(counterexample.value as object).length).toBeLessThanOrEqual(2);
    expect(await reproduce()).toEqual(first);
  });

  it("suiteOptions.runs bounds the generated requests", async () => {
    const requests = async (runs: number) => {
      const run = await runSuites({ suites: ["invalid-bodies"], suiteOptions: { runs } });
      const oneRule = run.events.find(
        (event) => event.type === "case-finished" && event.caseId === "one-rule",
      );
      return oneRule?.type === "case-finished" ? oneRule.exchangeCount : -1;
    };
    const once = await requests(1);
    const thrice = await requests(3);
    expect(once).toBeGreaterThanOrEqual(10);
    expect(thrice).toBeGreaterThan(once);
    expect(thrice).toBeLessThanOrEqual(3 * once);
  });

  it.each([
    "error-field-missing",
    "first-error-only",
    "invalid-body-accepted",
    "malformed-json-500",
    "id-as-string",
    "nodes-status-missing",
  ])("%s is caught by the suites and checks it names", async (id) => {
    const fault = faultRegistry.get(id);
    expect(fault, `${id} is registered`).toBeDefined();
    const run = await runSuites({ suites, faults: [id] });
    const failingSuites = new Set(run.problems.map((event) => event.suiteId));
    for (const suite of fault!.detectedBy.suites)
      expect(failingSuites, `${id} fails ${suite}`).toContain(suite);
    for (const check of fault!.detectedBy.checks ?? []) {
      expect([...run.failedChecks], `${id} fires ${check}`).toContain(check);
    }
  });
});
