/**
 * `--reporter github` and `--reporter ndjson` run for real (issue 35 item 4): against a server with a fault, one
 * `::error` annotation per failure group of the run, no more; the event stream holds the run's events, one a line,
 * the token nowhere.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { cli } from "../helpers/cli.ts";
import { cliToken as token } from "../helpers/cli-runs.ts";
import { bundledSpec } from "../helpers/reference.ts";

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.allSettled(servers.splice(0).map((server) => server.close()));
});

describe("conform run --reporter github,ndjson", () => {
  it("annotates each failure group once, and streams every event as a line", async () => {
    const server = await createReferenceServer({
      spec: await bundledSpec(),
      http: true,
      token,
      faults: ["error-field-missing", "page-size-out-of-range-accepted", "id-as-string"],
    });
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), "conform-ci-reporters-"));
    const result = await cli([
      "run",
      "--base-url",
      server.baseUrl,
      "--token",
      token,
      "--suite",
      "lists",
      "--reporter",
      "github,ndjson,json",
      "--report-dir",
      dir,
    ]);
    expect(result.code, result.err).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, "latest", "report.json"), "utf8"));
    const groups: { id: string }[] = report.groups;
    expect(groups.length).toBeGreaterThan(1);
    const annotations = result.out.split("\n").filter((line) => line.startsWith("::error "));
    expect(annotations).toHaveLength(groups.length);
    expect(annotations.map((line) => /group ([0-9a-f]+)/.exec(line)?.[1])).toEqual(
      groups.map((group) => group.id),
    );
    for (const line of annotations.filter((one) => !one.startsWith("::error title=conform error")))
      expect(line).toContain("reproduce: curl ");

    const stream = readFileSync(join(dir, "latest", "events.ndjson"), "utf8")
      .trimEnd()
      .split("\n");
    const events = stream.map((line) => JSON.parse(line) as { version: number; type: string });
    expect(events[0]).toMatchObject({ version: 1, type: "run-started" });
    expect(events.at(-1)).toMatchObject({ version: 1, type: "run-finished" });
    expect(events.filter((event) => event.type === "failure-group")).toHaveLength(groups.length);
    expect(stream.join("\n")).not.toContain(token);
  });
});
