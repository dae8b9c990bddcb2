/**
 * `conform proxy --confirm` with a tiny client against the embedded reference: without it the target gets exactly
 * the client's requests; with it the proxy reads back what the client wrote and fetches the unfiltered list behind
 * a filtered one (GETs only, the client's token, judged as the suite `confirmations`), within its bound.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import type { CaseFinished, RunEvent, RunFinished } from "../../src/core/events.ts";
import type { Fault } from "../../src/reference/faults/types.ts";
import { createReferenceServer } from "../../src/reference/server.ts";
import { confirmationsSourceId } from "../../src/traffic/confirm.ts";
import { startProxy } from "../helpers/proxy-session.ts";

const client = new Agent({ keepAliveTimeout: 100 });
afterAll(() => client.close());

/** Every request the reference server answers, as `METHOD /path`, with the token it came with. */
function countingFault(seen: { line: string; authorization: string | undefined }[]): Fault {
  return {
    id: "count-requests",
    description: "counts the requests (changes nothing)",
    detectedBy: { suites: [] },
    apply: (target) =>
      target.rewriteReplies((outgoing, _operation, incoming) => {
        seen.push({
          line: `${incoming.method} ${incoming.url}`,
          authorization: incoming.headers.authorization,
        });
        return outgoing;
      }),
  };
}

/**
 * The client: creates an OAuth client (whose secret only the create may show), renames it (unless `rename` is
 * false: the update's answer would show the secret too), lists compute types filtered, reads a region without a
 * token. None is a read-back.
 */
async function runClient(base: string, token: string, rename: boolean): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, "content-type": "application/json" };
  const send = async (
    path: string,
    init: { method?: string; headers: Record<string, string>; body?: string },
  ) => {
    const answer = await request(`${base}${path}`, {
      ...init,
      method: (init.method ?? "GET") as "GET",
      dispatcher: client,
    });
    return { status: answer.statusCode, text: await answer.body.text() };
  };
  const made = await send("/account/oauth-clients", {
    method: "POST",
    headers: json,
    body: '{"label":"confirm-test","redirect_uri":"https://example.com/cb"}',
  });
  expect(made.status).toBe(200);
  const id = JSON.parse(made.text).id as string;
  if (rename)
    await send(`/account/oauth-clients/${id}`, { method: "PUT", headers: json, body: '{"label":"renamed"}' });
  await send("/compute/types", { headers: { ...auth, "x-filter": '{"memory":{"+gte":4096}}' } });
  await send("/regions/us-east", { headers: {} });
}

/**
 * The client through a proxy to a reference server with `faults`; stopped once `confirmations` of the proxy's own
 * were judged (the last may still be in flight when the client is done: stopping would abandon it).
 */
async function throughProxy(options: {
  confirm?: { max: number };
  faults?: string[];
  rename?: boolean;
  confirmations?: number;
}) {
  const seen: { line: string; authorization: string | undefined }[] = [];
  const server = await createReferenceServer({
    http: true,
    faults: [...(options.faults ?? []), countingFault(seen)],
  });
  const proxy = await startProxy(
    new URL(server.baseUrl).origin,
    options.confirm ? { confirm: options.confirm } : {},
  );
  try {
    await runClient(`${proxy.url}/v4`, server.token, options.rename ?? true);
    const judged = () => exchangesOf(proxy.events, confirmationsSourceId).length;
    for (let waited = 0; judged() < (options.confirmations ?? 0) && waited < 10_000; waited += 20)
      await sleep(20);
  } finally {
    await proxy.stop().finally(() => server.close());
  }
  return { seen, events: proxy.events, token: server.token };
}

const casesOf = (events: readonly RunEvent[]) =>
  events.filter((event): event is CaseFinished => event.type === "case-finished");
const exchangesOf = (events: readonly RunEvent[], suiteId: string) =>
  events.flatMap((event) => (event.type === "exchange" && event.suiteId === suiteId ? [event.exchange] : []));
const failedChecks = (events: readonly RunEvent[]) =>
  casesOf(events).flatMap((one) =>
    one.results.filter((result) => result.outcome.status === "failed").map((result) => result.checkId),
  );

describe("conform proxy --confirm", () => {
  it("without it, the target gets exactly the client's requests", async () => {
    const { seen, events } = await throughProxy({});
    expect(seen.map((one) => one.line.replace(/\/[0-9a-f]{20,}/, "/ID"))).toEqual([
      "POST /v4/account/oauth-clients",
      "PUT /v4/account/oauth-clients/ID",
      "GET /v4/compute/types",
      "GET /v4/regions/us-east",
    ]);
    expect(casesOf(events).map((one) => one.suiteId)).toEqual(["proxy"]);
  });

  it("with it, reads back each write and fetches the unfiltered list, GETs only, with the client's token", async () => {
    const { seen, events, token } = await throughProxy({ confirm: { max: 100 }, confirmations: 3 });
    const confirmations = exchangesOf(events, confirmationsSourceId);
    expect(
      confirmations.map((one) => `${one.request.method} ${new URL(one.request.url).pathname}`).sort(),
    ).toEqual(
      ["GET /v4/account/oauth-clients/ID", "GET /v4/account/oauth-clients/ID", "GET /v4/compute/types"].map(
        (line) => line.replace("ID", new URL(confirmations[0]!.request.url).pathname.split("/").at(-1)!),
      ),
    );
    // A client's write waits for the read-back of the one before: each is judged in the state it read.
    const order = events.flatMap((event) =>
      event.type === "exchange" ? [`${event.suiteId} ${event.exchange.request.method}`] : [],
    );
    expect(order.slice(0, 4)).toEqual(["proxy POST", "confirmations GET", "proxy PUT", "confirmations GET"]);
    // The unfiltered list: the same URL without the filter header.
    const list = confirmations.find((one) => one.operationId === "getComputeTypes")!;
    expect(list.request.headers["x-filter"]).toBeUndefined();
    // Sent with the client's token, recorded redacted, never shown.
    const tokens = seen
      .filter((one) => one.line !== "GET /v4/regions/us-east")
      .map((one) => one.authorization);
    expect(new Set(tokens)).toEqual(new Set([`Bearer ${token}`]));
    expect(seen.filter((one) => !one.line.startsWith("GET"))).toHaveLength(2);
    expect(JSON.stringify(events)).not.toContain(token);
    const confirmed = casesOf(events).find((one) => one.suiteId === confirmationsSourceId)!;
    expect(confirmed.status).toBe("passed");
    expect(confirmed.logs).toContain("confirmations sent: 2 read-backs, 1 unfiltered list");
    expect(failedChecks(events)).toEqual([]);
    expect((events.at(-1) as RunFinished).exitCode).toBe(0);
  });

  it("catches what only a read-back shows: a client secret shown after its creation", async () => {
    const without = await throughProxy({ faults: ["client-secret-shown"], rename: false });
    expect(failedChecks(without.events)).toEqual([]);
    const confirmed = await throughProxy({
      confirm: { max: 100 },
      faults: ["client-secret-shown"],
      rename: false,
      confirmations: 2,
    });
    expect(failedChecks(confirmed.events)).toContain("secrets-not-returned");
    expect((confirmed.events.at(-1) as RunFinished).exitCode).toBe(1);
  });

  it("sends at most --max-confirmations, and says what it did not send", async () => {
    const { events } = await throughProxy({ confirm: { max: 1 }, confirmations: 1 });
    expect(exchangesOf(events, confirmationsSourceId)).toHaveLength(1);
    const confirmed = casesOf(events).find((one) => one.suiteId === confirmationsSourceId)!;
    expect(confirmed.logs).toContain("2 not sent: the limit of 1 (--max-confirmations)");
    const warnings = events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
    expect(warnings).toContain(
      "confirmations: the limit of 1 (--max-confirmations) was reached; later writes and filtered lists were not confirmed",
    );
  });
});
