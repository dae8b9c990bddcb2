/**
 * The protocol suites against a target the run did not start (a reference server standing in for a real one, with
 * its own certificate given as --ca): without --allow-writes nothing is minted or created and the cases that would
 * write skip, saying so; with it, the rate-limit drive runs after a warning in the case's logs.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import { embeddedRateLimits } from "../../src/runner/target.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";
import { cases } from "./protocol-faults.ts";

const server = await createReferenceServer({ spec: await bundledSpec(), ...embeddedRateLimits });
afterAll(() => server.close());
const caFile = join(mkdtempSync(join(tmpdir(), "conform-ca-")), "ca.pem");
writeFileSync(caFile, server.certificatePem!);
const target = { baseUrl: server.baseUrl, authUrl: server.authUrl, token: server.token, caFile };
const suites = ["auth", "rate-limits", "headers", "versioning"];

describe("protocol suites against a target the run did not start", () => {
  it("without --allow-writes: no failure, nothing minted or created, the writing cases skip saying why", async () => {
    const tokensBefore = server.state.tokens.size;
    const run = await runSuites({ ...target, suites });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const skipped = cases(run).filter((event) => event.status === "skipped");
    expect(skipped.map((event) => `${event.suiteId}/${event.caseId}`)).toEqual(
      expect.arrayContaining([
        "auth/expired-token",
        "auth/scope-matrix",
        "auth/oauth-clients",
        "rate-limits/limit-enforced",
        "versioning/deprecated-299",
        "versioning/times-utc",
      ]),
    );
    for (const event of skipped) {
      expect(event.skipReason).toMatch(
        /--allow-writes|from the earlier case "(limit-enforced|oauth-clients|code-exchange-urlencoded)"/,
      );
    }
    expect(server.state.tokens.size).toBe(tokensBefore);
    expect(server.state.oauthClients.size).toBe(0);
    expect(server.state.nodeBalancers.size).toBe(0);
    expect(server.state.profile.timezone).toBe("UTC");
  });

  it("with --allow-writes: the drive warns in its logs, then runs and passes; everything made is removed", async () => {
    const run = await runSuites({ ...target, suites: ["rate-limits"], allowWrites: true });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const drive = cases(run).find((event) => event.caseId === "limit-enforced");
    expect(drive?.status).toBe("passed");
    expect(drive?.logs?.join("\n")).toMatch(/^WARNING: driving createComputeInstance past its rate limit/);
    expect(run.finished.cleanup.failed).toEqual([]);
  });
});
