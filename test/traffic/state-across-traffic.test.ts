/**
 * The state-across-the-traffic checks on a client's traffic: a script as a client of the API would write it (make a
 * load balancer, rename it, add a profile and switch it to https, boot an instance and poll it, list types with and
 * without a filter, delete the balancer and look again, read the event feed) is sent through `conform proxy` to the reference, clean and
 * with each fault whose symptom that traffic shows; the HAR the proxy's session writes is then given to
 * `conform verify`. Each fault is caught by the check that judges its symptom, in both; the clean server by none.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent, RunFinished } from "../../src/core/events.ts";
import { createReferenceServer } from "../../src/reference/server.ts";
import { type RunConfig, runConfigDefaults } from "../../src/runner/config.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { HarWriter } from "../../src/traffic/har.ts";
import { runProxy } from "../../src/traffic/proxy.ts";
import { verifyRecordings } from "../../src/traffic/verify.ts";
import { makeTlsPair } from "../helpers/certificates.ts";

const config: RunConfig = { ...runConfigDefaults, specPath: bundledSpecPath, reporters: [] };
const dir = await mkdtemp(join(tmpdir(), "conform-state-"));
const client = new Agent({ keepAliveTimeout: 100 });
afterAll(async () => {
  await client.close();
  await rm(dir, { recursive: true, force: true });
});
const tls = await makeTlsPair();
const stateChecks = [
  "observed-read-back",
  "observed-gone-after-delete",
  "observed-reaches-state",
  "observed-counts",
  "observed-filter-complete",
  "observed-write-recorded",
];

type Send = (
  path: string,
  method?: string,
  json?: unknown,
  filter?: string,
) => Promise<Record<string, unknown>>;

/** The client's script: what an SDK's user does, reading back what it wrote as SDKs' examples do. */
async function script(send: Send): Promise<void> {
  const balancer = await send("/nodebalancers", "POST", { region: "us-east", label: "lb-state-1" });
  const at = `/nodebalancers/${String(balancer.id)}`;
  await send(at);
  await send(at, "PUT", { label: "lb-state-2", client_conn_throttle: 5 });
  await send(at);
  const profile = await send(`${at}/configs`, "POST", { port: 80, protocol: "http", check: "none" });
  const profileAt = `${at}/configs/${String(profile.id)}`;
  await send(profileAt, "PUT", { protocol: "https", port: 443, ssl_cert: tls.cert, ssl_key: tls.key });
  await send(profileAt);
  await send(`${profileAt}/nodes`);
  const instance = await send("/compute/instances", "POST", { region: "us-east", type: "g6-standard-1" });
  for (let poll = 0; poll < 40; poll += 1) {
    const read = await send(`/compute/instances/${String(instance.id)}`);
    if (read.status === "running") break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await send("/compute/types");
  await send("/compute/types", "GET", undefined, '{"+or":[{"class":"standard"},{"class":"highmem"}]}');
  await send(at, "DELETE");
  await send(at);
  await send("/nodebalancers");
  // The activity page: what the account did, newest first.
  await send("/account/events");
}

/** The script through a proxy to the reference with `faults`; the proxy's events, and its traffic as a HAR. */
async function throughProxy(faults: string[]): Promise<{ events: RunEvent[]; har: string }> {
  const server = await createReferenceServer({ http: true, faults, timeScale: 0.01 });
  const har = join(dir, `${faults.join("-") || "clean"}.har`);
  const writer = new HarWriter(har, "test");
  const events: RunEvent[] = [];
  const controller = new AbortController();
  let listening: (url: string) => void = () => {};
  const proxyUrl = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const finished = runProxy(config, {
    runId: "20261127T000000Z-state",
    listeners: [(event) => void events.push(event), writer.listener],
    signal: controller.signal,
    toolVersion: "test",
    target: new URL(server.baseUrl).origin,
    onListening: listening,
  });
  try {
    const base = `${await proxyUrl}/v4`;
    await script(async (path, method = "GET", json, filter) => {
      const headers: Record<string, string> = { authorization: `Bearer ${server.token}` };
      if (json !== undefined) headers["content-type"] = "application/json";
      if (filter !== undefined) headers["x-filter"] = filter;
      const answer = await request(`${base}${path}`, {
        method: method as "GET",
        headers,
        body: json === undefined ? undefined : JSON.stringify(json),
        dispatcher: client,
      });
      const text = await answer.body.text();
      return text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {};
    });
  } finally {
    controller.abort();
    await finished.finally(() => server.close());
    await writer.close();
  }
  return { events, har };
}

async function verified(har: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await verifyRecordings(config, {
    runId: "20261127T000000Z-state-verify",
    listeners: [(event) => void events.push(event)],
    signal: new AbortController().signal,
    toolVersion: "test",
    files: [har],
  });
  return events;
}

const failedChecks = (events: readonly RunEvent[]) =>
  new Set(
    events.flatMap((event) =>
      event.type === "case-finished"
        ? event.results.filter((result) => result.outcome.status === "failed").map((result) => result.checkId)
        : [],
    ),
  );
/** The state checks that judged (passed or failed) some answer, from the coverage of the run's end. */
const judgingStateChecks = (events: readonly RunEvent[]) =>
  stateChecks.filter((id) =>
    (events.at(-1) as RunFinished).coverage.some((operation) => operation.checks.includes(id)),
  );

describe("state across a client's traffic, through conform proxy and conform verify", () => {
  it("raises no alarm on the clean reference, and each state check judges something", async () => {
    const { events, har } = await throughProxy([]);
    expect([...failedChecks(events)]).toEqual([]);
    expect((events.at(-1) as RunFinished).exitCode).toBe(0);
    expect(judgingStateChecks(events)).toEqual(stateChecks);
    const recorded = await verified(har);
    expect([...failedChecks(recorded)]).toEqual([]);
  });

  it.each([
    ["update-not-persisted", "observed-read-back"],
    ["profile-protocol-kept", "observed-read-back"],
    ["delete-keeps-item", "observed-gone-after-delete"],
    ["filter-or-as-and", "observed-filter-complete"],
    ["write-without-event", "observed-write-recorded"],
  ])("catches %s by %s, in the proxy and in its HAR", async (fault, check) => {
    const { events, har } = await throughProxy([fault]);
    expect([...failedChecks(events)]).toContain(check);
    expect([...failedChecks(await verified(har))]).toContain(check);
  });
});
