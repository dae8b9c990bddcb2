/**
 * The operations suite against a target the run did not start, without --allow-writes: every operation of the API
 * is still requested (a write only where nothing can change: an unknown resource in its path, or a body of the
 * wrong type), nothing is created, minted or changed, and no check fails.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import { createReferenceServer } from "../../src/reference/server.ts";
import { embeddedRateLimits } from "../../src/runner/target.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

const server = await createReferenceServer({ spec: await bundledSpec(), ...embeddedRateLimits });
afterAll(() => server.close());
const caFile = join(mkdtempSync(join(tmpdir(), "conform-ca-")), "ca.pem");
writeFileSync(caFile, server.certificatePem!);

describe("operations suite without --allow-writes", () => {
  it("requests every API operation and changes nothing", async () => {
    const tokensBefore = server.state.tokens.size;
    const run = await runSuites({
      baseUrl: server.baseUrl,
      authUrl: server.authUrl,
      token: server.token,
      caFile,
      suites: ["operations"],
    });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const intents = run.events.flatMap((event: RunEvent) =>
      event.type === "exchange" && event.exchange.request.intent ? [event.exchange.request.intent] : [],
    );
    const requested = new Set(intents.map((intent) => intent.operationId));
    const api = run.finished.coverage.filter((operation) => !operation.path.startsWith("/oauth"));
    expect(api.filter((operation) => !requested.has(operation.operationId))).toEqual([]);
    expect(server.state.tokens.size).toBe(tokensBefore);
    expect(server.state.nodeBalancers.size).toBe(0);
    expect(server.state.instances.size).toBe(0);
    expect(server.state.oauthClients.size).toBe(0);
    expect(server.state.profile.timezone).toBe("UTC");
  });
});
