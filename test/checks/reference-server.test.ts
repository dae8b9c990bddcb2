/**
 * Every built-in check over real answers of the embedded reference server: the clean reference passes them all
 * (ARCHITECTURE.md "How we know it works": the clean reference passes everything), and each check judges at least one
 * of these answers instead of skipping them all.
 */
import { describe, expect, it } from "vitest";
import { builtinChecks, listChecks } from "../../src/checks/index.ts";
import type { AnsweredExchange, CheckContext } from "../../src/checks/types.ts";
import type { CheckOutcome } from "../../src/core/result.ts";
import {
  type ApiResponse,
  type CallOptions,
  type ReferenceHarness,
  startReference,
} from "../helpers/reference.ts";

interface Call {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly options?: CallOptions;
  /** Answered by the login server (path relative to the auth URL) rather than the API. */
  readonly auth?: boolean;
}

const calls: readonly Call[] = [
  { name: "a page of load balancers", method: "GET", path: "/nodebalancers" },
  {
    name: "a public catalogue read without a token",
    method: "GET",
    path: "/regions",
    options: { token: null },
  },
  { name: "one instance type", method: "GET", path: "/compute/types/g6-standard-2" },
  { name: "HEAD of a list", method: "HEAD", path: "/regions" },
  { name: "a missing load balancer (404)", method: "GET", path: "/nodebalancers/987654" },
  { name: "no token (401)", method: "GET", path: "/nodebalancers", options: { token: null } },
  {
    name: "an invalid create (400)",
    method: "POST",
    path: "/nodebalancers",
    options: { json: { region: 17 } },
  },
  {
    name: "a token created",
    method: "POST",
    path: "/profile/tokens",
    options: { json: { label: "conform-reference-check", scopes: "*" } },
  },
  {
    name: "a filtered list, in order",
    method: "GET",
    path: "/compute/types?page_size=25",
    options: { headers: { "x-filter": JSON.stringify({ "+order_by": "id", "+order": "asc" }) } },
  },
  {
    name: "an unfilterable X-Filter key (400)",
    method: "GET",
    path: "/nodebalancers",
    options: { headers: { "x-filter": JSON.stringify({ hostname: "x" }) } },
  },
  {
    name: "a refused token exchange on the login server (400)",
    method: "POST",
    path: "/oauth/token",
    options: { form: { client_id: "nobody", client_secret: "nothing", code: "nothing" } },
    auth: true,
  },
];

async function record(
  harness: ReferenceHarness,
  call: Call,
  id: number,
): Promise<{ exchange: AnsweredExchange; context: CheckContext }> {
  const startedAt = Date.now();
  const send = call.auth ? harness.callAuth : harness.call;
  const answer: ApiResponse = await send(call.method, call.path, call.options);
  const receivedAt = Date.now();
  const origin = call.auth ? harness.server.authUrl : harness.server.baseUrl;
  const json = typeof answer.body === "string" ? undefined : answer.body;
  const match = harness.spec.operations.match(
    call.method === "HEAD" ? "GET" : call.method,
    call.path.split("?")[0]!,
  );
  const exchange: AnsweredExchange = {
    id,
    request: {
      method: call.method,
      url: `${origin}${call.path}`,
      // As the recorder keeps them: the harness's token redacted, unless the call sends none.
      headers: {
        ...(call.options?.token === null ? {} : { authorization: "Bearer [REDACTED]" }),
        ...call.options?.headers,
      },
      body: call.options?.json === undefined ? undefined : JSON.stringify(call.options.json),
    },
    response: {
      status: answer.status,
      headers: answer.headers,
      json,
      text: answer.text,
      truncated: false,
      bytes: Buffer.byteLength(answer.text),
    },
    error: undefined,
    timings: { startedAt, headersMs: receivedAt - startedAt, totalMs: receivedAt - startedAt },
    operationId: match?.operation.operationId,
    retries: 0,
  };
  return {
    exchange,
    context: {
      spec: harness.spec,
      operation: match?.operation,
      sentAt: startedAt,
      receivedAt,
      // The harness's one token, as a proxy tells callers apart.
      ...(call.options?.token === null ? {} : { caller: "harness-token" }),
    },
  };
}

const harness = await startReference({ http: true });
const limited = await startReference({ http: true, rateLimits: { general: { limit: 1, windowMs: 60_000 } } });

/** Each check's outcome on one exchange (none: not an exchange it is about), its state kept in `states`. */
function outcomes(
  context: CheckContext,
  exchange: AnsweredExchange,
  states = new Map<string, unknown>(),
): Record<string, CheckOutcome> {
  const verdicts: Record<string, CheckOutcome> = {};
  for (const definition of listChecks()) {
    if (definition.state && !states.has(definition.id)) states.set(definition.id, definition.state());
    const outcome = definition.check(context, exchange, states.get(definition.id));
    if (outcome) verdicts[definition.id] = outcome;
  }
  return verdicts;
}

/**
 * Checks these calls cannot exercise: a deprecated operation's success needs a balancer and a profile first, and
 * HSTS applies over HTTPS only (these calls go over plain HTTP). Five state checks need a chain of calls (a
 * write, then reads of what it made, or of the event feed): test/traffic/state-across-traffic.test.ts drives each over the clean reference.
 * An issued token needs an OAuth client and a login first, a new item's empty list and an instance created off a
 * create first: the traffic matrix (test/bench/traffic-matrix.test.ts) drives them over the clean reference.
 */
const notExercised = [
  "observed-deprecated",
  "token-lifetime",
  "observed-starts-empty",
  "observed-stays-off",
  "hsts-header",
  "observed-gone-after-delete",
  "observed-reaches-state",
  "observed-counts",
  "observed-filter-complete",
  "observed-write-recorded",
];

describe("every check over the clean reference server", () => {
  it("passes or skips every answer, and each check judges at least one", async () => {
    const judged = new Set<string>(notExercised);
    const failures: string[] = [];
    const states = new Map<string, unknown>();
    for (const [index, call] of calls.entries()) {
      const { exchange, context } = await record(harness, call, index + 1);
      for (const [id, outcome] of Object.entries(outcomes(context, exchange, states))) {
        if (outcome.status === "failed") failures.push(`${call.name}: ${id}: ${outcome.message}`);
        if (outcome.status === "passed") judged.add(id);
      }
    }
    expect(failures).toEqual([]);
    expect([...judged].sort()).toEqual(Object.keys(builtinChecks).sort());
  });

  it("judges a 429: Retry-After, rate-limit headers, error body, schema", async () => {
    const call = { name: "429", method: "GET", path: "/compute/types/g6-standard-2" };
    await record(limited, call, 1);
    const { exchange, context } = await record(limited, call, 2);
    expect(exchange.response?.status).toBe(429);
    const statuses = Object.fromEntries(
      Object.entries(outcomes(context, exchange)).map(([id, outcome]) => [id, outcome.status]),
    );
    expect(statuses).toMatchObject({
      "retry-after-on-429": "passed",
      "rate-limit-headers": "passed",
      "error-body-shape": "passed",
      "body-matches-schema": "passed",
      "documented-headers": "passed",
    });
    expect(Object.values(statuses)).not.toContain("failed");
  });
});
