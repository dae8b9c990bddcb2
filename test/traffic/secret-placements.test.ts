/**
 * The crafted placements of secrets (`test/fixtures/secret-placements.ts`) through the recorder of traffic conform
 * did not make, the one `verify` and `proxy` use: the recorded exchanges hold none of the secrets. Through `verify`
 * every file is read before one is recorded, so a secret learnt late is scrubbed where it appeared before it was
 * learnt; the proxy records as traffic comes and cannot know a secret before it is shown (see the last case).
 * Then the whole corpus through `conform verify` as one HAR: no secret in any output.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listChecks } from "../../src/checks/index.ts";
import type { RunEvent } from "../../src/core/events.ts";
import { EventBus } from "../../src/runner/event-bus.ts";
import { harEntry } from "../../src/traffic/har.ts";
import { ExchangeRecorder } from "../../src/traffic/record.ts";
import { TrafficSession } from "../../src/traffic/session.ts";
import { secretPlacements } from "../fixtures/secret-placements.ts";
import { cli } from "../helpers/cli.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
const placements = secretPlacements();

/** Everything a recorder keeps of a placement's exchanges, as reporters would write it. */
function recorded(placement: (typeof placements)[number], learnFirst: boolean): string {
  const recorder = new ExchangeRecorder(spec);
  if (learnFirst) for (const observed of placement.exchanges) recorder.learn(observed);
  return JSON.stringify(placement.exchanges.map((observed) => recorder.record(observed)));
}

describe("secrets placed in recorded traffic", () => {
  it.each(placements.map((placement) => [placement.name, placement] as const))(
    "verify's recorder: %s leaks nowhere",
    (_name, placement) => {
      expect(recorded(placement, true)).not.toContain(placement.secret);
    },
  );

  it.each(
    placements
      .filter((placement) => placement.name !== "seen in free text before it is learnt")
      .map((placement) => [placement.name, placement] as const),
  )("the proxy's recorder (in order): %s leaks nowhere", (_name, placement) => {
    expect(recorded(placement, false)).not.toContain(placement.secret);
  });

  it("through the proxy's session, a secret seen before it is learnt is scrubbed from what the case keeps", () => {
    const placement = placements.find((one) => one.name === "seen in free text before it is learnt")!;
    const recorder = new ExchangeRecorder(spec);
    const bus = new EventBus();
    const events: RunEvent[] = [];
    bus.subscribe((event) => void events.push(event));
    const session = new TrafficSession(
      {
        runId: "20261127T000000Z-proxy",
        spec,
        checks: listChecks(),
        bus,
        target: "https://api.example.test/v4",
        toolVersion: "test",
        keptBodyBytes: 64 * 1024,
        keptReportBytes: 1024 * 1024,
        secrets: recorder.secrets,
      },
      [{ id: "proxy", title: "traffic" }],
    );
    for (const observed of placement.exchanges) session.add("proxy", recorder.record(observed));
    session.finish();
    const finished = events.find((event) => event.type === "case-finished");
    expect(finished?.type === "case-finished" && finished.exchanges.length).toBeGreaterThan(0);
    expect(JSON.stringify(finished)).not.toContain(placement.secret);
  });

  it("the whole corpus through conform verify: no secret in the console nor in any report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-placements-"));
    const recorder = new ExchangeRecorder(spec);
    // The HAR holds the traffic as it was (unredacted), as a browser or another tool would have written it.
    const entries = placements.flatMap((placement) =>
      placement.exchanges.map((observed) => {
        const entry = harEntry({
          ...recorder.record({
            ...observed,
            requestHeaders: {},
            requestBody: undefined,
            response: undefined,
          }),
          request: {
            method: observed.method,
            url: observed.url,
            headers: { ...observed.requestHeaders },
            body: observed.requestBody,
          },
          response: observed.response && {
            status: observed.response.status,
            headers: { ...observed.response.headers },
            json: undefined,
            text: observed.response.body,
            truncated: false,
            bytes: Buffer.byteLength(observed.response.body),
          },
          error: undefined,
        });
        return entry;
      }),
    );
    const har = join(dir, "traffic.har");
    writeFileSync(
      har,
      JSON.stringify({ log: { version: "1.2", creator: { name: "t", version: "1" }, entries } }),
    );
    for (const placement of placements) expect(readFileSync(har, "utf8")).toContain(placement.secret);
    const reports = join(dir, "reports");
    const result = await cli(["verify", har, "--report-dir", reports, "--har", join(dir, "out.har")]);
    expect([0, 1], result.err).toContain(result.code);
    const latest = join(reports, "latest");
    const outputs: [string, string][] = [
      ["console", result.out + result.err],
      ["out.har", readFileSync(join(dir, "out.har"), "utf8")],
      ...readdirSync(latest).map((name): [string, string] => [
        name,
        readFileSync(join(latest, name), "utf8"),
      ]),
    ];
    const leaks = placements.flatMap((placement) =>
      outputs
        .filter(([, text]) => text.includes(placement.secret))
        .map(([where]) => `${placement.name} in ${where}`),
    );
    expect(leaks).toEqual([]);
  });
});
