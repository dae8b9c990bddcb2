/**
 * `-H/--header "Name: value"` (issue 35 item 1): sent on every request of a run, a secret-named one never recorded,
 * Authorization and malformed headers refused before anything runs.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { cli } from "../helpers/cli.ts";
import { cliToken as token } from "../helpers/cli-runs.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { startRewritingProxy } from "../helpers/rewriting-proxy.ts";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(closers.splice(0).map((close) => close()));
});

/** A reference server behind a forwarder that keeps each request's headers; `baseUrl` goes through it. */
async function serverBehindForwarder() {
  const server: ReferenceServer = await createReferenceServer({
    spec: await bundledSpec(),
    http: true,
    token,
  });
  closers.push(() => server.close());
  const upstream = new URL(server.baseUrl);
  const seen: IncomingHttpHeaders[] = [];
  const forwarder = await startRewritingProxy(
    upstream.origin,
    () => {},
    (headers) => seen.push(headers),
  );
  closers.push(() => forwarder.close());
  return { server, baseUrl: `${forwarder.origin}${upstream.pathname}`, seen };
}

describe("conform run --header", () => {
  it("sends each header on every request; a secret-named one is recorded redacted, its value nowhere", async () => {
    const { baseUrl, seen } = await serverBehindForwarder();
    const dir = mkdtempSync(join(tmpdir(), "conform-header-"));
    const har = join(dir, "run.har");
    const gatewayKey = "k3y-42";
    const result = await cli([
      "run",
      "--base-url",
      baseUrl,
      "--token",
      token,
      "--suite",
      "catalogue",
      "-H",
      "X-Tenant: acme",
      "--header",
      `X-Api-Key: ${gatewayKey}`,
      "--report-dir",
      join(dir, "reports"),
      "--har",
      har,
    ]);
    expect(result.code, result.err + result.out).toBe(0);
    expect(seen.length).toBeGreaterThan(3);
    for (const headers of seen) {
      expect(headers["x-tenant"]).toBe("acme");
      expect(headers["x-api-key"]).toBe(gatewayKey);
    }
    const entries = JSON.parse(readFileSync(har, "utf8")).log.entries as {
      request: { headers: { name: string; value: string }[] };
    }[];
    expect(entries.length).toBeGreaterThan(3);
    const header = (name: string) =>
      new Set(entries.map((entry) => entry.request.headers.find((one) => one.name === name)?.value));
    expect(header("x-tenant")).toEqual(new Set(["acme"]));
    expect(header("x-api-key")).toEqual(new Set(["[REDACTED]"]));
    expect(readFileSync(har, "utf8")).not.toContain(gatewayKey);
    expect(readFileSync(join(dir, "reports", "latest", "report.json"), "utf8")).not.toContain(gatewayKey);
    expect(result.out + result.err).not.toContain(gatewayKey);
  });

  it("conform cleanup sends them too (a gateway asks for its key on the deletes as well)", async () => {
    const { server, baseUrl, seen } = await serverBehindForwarder();
    const made = await fetch(`${server.baseUrl}/nodebalancers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ region: "us-east", label: "conform-ab12cd-left" }),
    });
    expect(made.status).toBe(200);
    const result = await cli([
      "cleanup",
      "--base-url",
      baseUrl,
      "--token",
      token,
      "--prefix",
      "conform-ab12cd",
      "-H",
      "X-Api-Key: k3y-42",
    ]);
    expect(result.code, result.err + result.out).toBe(0);
    expect(server.state.nodeBalancers.size).toBe(0);
    expect(seen.length).toBeGreaterThan(1);
    for (const headers of seen) expect(headers["x-api-key"]).toBe("k3y-42");
    expect(result.out + result.err).not.toContain("k3y-42");
  });

  it.each([
    [
      ["-H", "Authorization: Bearer abc"],
      /--header "Authorization" is refused: give the token with --token-env/,
    ],
    [["-H", "X-Tenant"], /--header "X-Tenant": give "Name: value"/],
    [["-H", "Bad Name: 1"], /--header "Bad Name": give "Name: value"/],
    [["--header", "Host: example.net"], /--header "Host" is refused/],
  ])("refuses %j before anything runs (exit 2)", async (flags, message) => {
    const result = await cli(["run", "--suite", "catalogue", ...flags]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });
});
