/**
 * A flood: one header wrong on every answer. A small proxy of our own (node:http on 127.0.0.1) stands in front of
 * the reference server and sets `X-RateLimit-Reset` to a fixed time in the past on every answer; the reference has
 * one real defect besides (`filter-neq-ignored`). A full run must give one failure group per check for the header,
 * with its count, keep the filter defect visible beside it, and stay short: the console under 300 lines and
 * report.json under 2 MB.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import { keptExchangesPerGroup } from "../../src/runner/failure-groups.ts";
import { embeddedRateLimits, embeddedTimeScale } from "../../src/runner/target.ts";
import { fullRunThrough } from "../helpers/full-run.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { startRewritingProxy } from "../helpers/rewriting-proxy.ts";

/** 2023-11-14T22:13:20Z: long past. */
const resetInThePast = "1700000000";

const reference = await createReferenceServer({
  spec: await bundledSpec(),
  http: true,
  timeScale: embeddedTimeScale,
  ...embeddedRateLimits,
  faults: ["filter-neq-ignored"],
});
// One header wrong on every answer: a fixed X-RateLimit-Reset long past.
const proxy = await startRewritingProxy(reference.authUrl, (headers) => {
  if (headers["x-ratelimit-reset"] !== undefined) headers["x-ratelimit-reset"] = resetInThePast;
});
const origin = proxy.origin;
afterAll(async () => {
  await proxy.close();
  await reference.close();
});

describe("a target that breaks one header on every answer", () => {
  it("is one failure group per check with its count, the other defect beside it, in a short console and report", async () => {
    const { finished, events, consoleText, outputDir } = await fullRunThrough(
      reference,
      origin,
      "20261124T000000Z-flood",
      ["console", "json"],
    );
    expect(finished.exitCode).toBe(1);

    // The header: one group per check that judged it, with its count.
    const resetGroups = finished.groups.filter((group) => group.example.includes("X-RateLimit-Reset"));
    const byCheck = Map.groupBy(resetGroups, (group) => group.checkId);
    expect(
      [...byCheck.values()].every((groups) => groups.length === 1),
      JSON.stringify(resetGroups),
    ).toBe(true);
    const header = byCheck.get("rate-limit-headers")?.[0];
    expect(header?.failures).toBeGreaterThan(100);
    expect(header?.cases).toBeGreaterThan(10);
    expect(header?.exchangesKept).toBe(keptExchangesPerGroup);
    expect(header?.operationCount).toBeGreaterThan(10);
    // Every failure is counted: the results' counts add up to the group's.
    const counted = events
      .filter((event) => event.type === "case-finished")
      .flatMap((event) => event.results)
      .filter((result) => result.group === header?.id)
      .reduce((sum, result) => sum + (result.count ?? 1), 0);
    expect(counted).toBe(header?.failures);

    // The real defect is there beside it.
    expect(
      finished.groups.some((group) => /X-Filter answers wrongly with \+neq/.test(group.checkId)),
      JSON.stringify(finished.groups.map((group) => group.checkId)),
    ).toBe(true);

    // Short outputs: the console lists the groups, the report keeps counts and a few exchanges per group.
    const lines = consoleText.split("\n").length;
    expect(lines).toBeLessThan(300);
    expect(consoleText).toContain(`${header?.failures}× rate-limit-headers`);
    const reportPath = join(outputDir, "report.json");
    expect(statSync(reportPath).size).toBeLessThan(2 * 1024 * 1024);
    const report = JSON.parse(readFileSync(reportPath, "utf8"));
    expect(report.groups.map((group: { id: string }) => group.id)).toEqual(
      finished.groups.map((group) => group.id),
    );
  }, 300_000);
});
