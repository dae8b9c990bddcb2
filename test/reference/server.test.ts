import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/reference/clock.ts";
import { startReference } from "../helpers/reference.ts";

const harness = await startReference();

describe("reference server: headers every answer carries", () => {
  const cases: [string, string, number, string | null][] = [
    ["GET", "/regions", 200, null],
    ["GET", "/compute/types?page_size=25", 200, null],
    ["GET", "/nodebalancers", 200, "token"],
    ["GET", "/nodebalancers/999999", 404, "token"],
    ["GET", "/nodebalancers", 401, null],
    ["GET", "/regions?page=0", 400, null],
  ];
  it.each(cases)("%s %s answers %i with the description's headers", async (method, path, status, auth) => {
    const response = await harness.call(method, path, { token: auth === "token" ? undefined : null });
    expect(response.status).toBe(status);
    expect(response.headers).toMatchObject({
      "content-type": "application/json",
      "x-spec-version": harness.spec.version,
      "access-control-allow-origin": "*",
      "strict-transport-security": "max-age=31536000",
      "content-security-policy": "default-src 'none'",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
    });
    expect(response.headers.vary).toContain("Authorization");
    expect(response.headers.vary).toContain("X-Filter");
    expect(response.headers["access-control-allow-headers"]).toContain("X-Filter");
    expect(response.headers["cache-control"]).toBeTruthy();
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(response.headers[name]).toMatch(/^\d+$/);
    }
  });

  it("answers an OPTIONS preflight with the allowed methods and headers", async () => {
    const response = await harness.call("OPTIONS", "/nodebalancers", {
      token: null,
      unchecked: true,
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect(response.status).toBe(200);
    for (const method of ["HEAD", "GET", "OPTIONS", "POST", "PUT", "DELETE"]) {
      expect(response.headers["access-control-allow-methods"]).toContain(method);
    }
  });

  it("answers HEAD with the GET's headers and no body", async () => {
    const get = await harness.call("GET", "/regions", { token: null });
    const head = await harness.call("HEAD", "/regions", { token: null });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers["x-spec-version"]).toBe(get.headers["x-spec-version"]);
  });

  it("says which scopes an operation needs and which the token has", async () => {
    const response = await harness.call("GET", "/nodebalancers");
    expect(response.headers["x-accepted-oauth-scopes"]).toBe("nodebalancers:read_only");
    expect(response.headers["x-oauth-scopes"]).toBe("*");
    expect(response.headers["x-customer-uuid"]).toMatch(/^[0-9a-f-]{36}$/);
    const publicAnswer = await harness.call("GET", "/regions", { token: null });
    expect(publicAnswer.headers["x-accepted-oauth-scopes"]).toBe("*");
  });
});

describe("reference server: refusals", () => {
  it.each([
    ["no Authorization header", null, undefined],
    ["a malformed header", undefined, "Token abc"],
    ["an unknown token", "f".repeat(64), undefined],
  ])("%s gets 401 Invalid Token with X-OAuth-Scopes: unknown", async (_name, token, authorization) => {
    const response = await harness.call("GET", "/nodebalancers", {
      token: token ?? null,
      headers: authorization ? { authorization } : {},
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ errors: [{ reason: "Invalid Token" }] });
    expect(response.headers["x-oauth-scopes"]).toBe("unknown");
  });

  it("answers an unknown path with 404 Not found", async () => {
    const response = await harness.call("GET", "/no-such-thing", { unchecked: true });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ reason: "Not found" }] });
  });

  it("answers an unknown id with 404 Not found", async () => {
    const response = await harness.call("GET", "/compute/instances/987654");
    expect(response).toMatchObject({ status: 404, body: { errors: [{ reason: "Not found" }] } });
  });

  it("answers a method the path does not have with 405", async () => {
    const response = await harness.call("DELETE", "/regions", { unchecked: true });
    expect(response.status).toBe(405);
  });

  it.each([
    ["malformed JSON", "{", "application/json", 400, /not valid JSON/],
    ["a wrong content type", "region=us-east", "text/plain", 400, /Content-Type text\/plain is not accepted/],
    ["a JSON array", "[]", "application/json", 400, /must be object/],
    ["deep nesting", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, "application/json", 400, /./],
  ])("refuses %s with a clear error", async (_name, raw, contentType, status, reason) => {
    const response = await harness.call("POST", "/nodebalancers", { raw, contentType });
    expect(response.status).toBe(status);
    expect(response.body.errors[0].reason).toMatch(reason);
  });

  it("refuses an oversized body with 413", async () => {
    const raw = JSON.stringify({ region: "us-east", label: "x".repeat(2 * 1024 * 1024) });
    const response = await harness.call("POST", "/nodebalancers", {
      raw,
      contentType: "application/json",
      unchecked: true,
    });
    expect(response.status).toBe(413);
    expect(response.body.errors[0].reason).toMatch(/too large/);
  });

  it("reports every problem of a body at once, each naming its field", async () => {
    const response = await harness.call("POST", "/compute/instances", { json: { label: 5, booted: "yes" } });
    expect(response.status).toBe(400);
    const fields = response.body.errors.map((error: { field?: string }) => error.field).sort();
    expect(fields).toEqual(expect.arrayContaining(["booted", "label", "region", "type"]));
  });

  it("does not let __proto__ keys reach a prototype", async () => {
    const raw = '{"__proto__": {"polluted": true}, "region": "us-east", "label": "proto-test"}';
    const response = await harness.call("POST", "/nodebalancers", { raw, contentType: "application/json" });
    expect([200, 400]).toContain(response.status);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("survives concurrent requests", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        harness.call("GET", `/compute/types?page=${(index % 3) + 1}&page_size=25`, { token: null }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  });
});

describe("reference server: lists", () => {
  it("filters a list by X-Filter", async () => {
    const response = await harness.call("GET", "/compute/types?page_size=500", {
      token: null,
      headers: { "x-filter": JSON.stringify({ class: "standard", "+order_by": "memory", "+order": "desc" }) },
    });
    expect(response.status).toBe(200);
    const memories = response.body.data.map((type: { memory: number }) => type.memory);
    expect(response.body.data.every((type: { class: string }) => type.class === "standard")).toBe(true);
    expect(memories.length).toBeGreaterThan(1);
    expect(memories).toEqual([...memories].sort((a, b) => b - a));
  });

  it("refuses a filter on a field that is not filterable", async () => {
    const response = await harness.call("GET", "/compute/types", {
      token: null,
      headers: { "x-filter": JSON.stringify({ id: "g6-standard-1" }) },
    });
    expect(response).toMatchObject({
      status: 400,
      body: { errors: [{ reason: "Cannot filter on id", field: "X-Filter" }] },
    });
  });

  it("pages the catalogue at page_size 25", async () => {
    const first = await harness.call("GET", "/regions?page_size=25", { token: null });
    expect(first.body.pages).toBeGreaterThan(1);
    expect(first.body.data).toHaveLength(25);
    expect(first.body.results).toBeGreaterThanOrEqual(26);
  });
});

describe("reference server: rate limits", async () => {
  const clock = new ManualClock();
  const limited = await startReference({
    clock,
    rateLimits: { general: { limit: 3, windowMs: 10_000 }, list: { limit: 2, windowMs: 10_000 } },
  });

  it("counts down, then answers 429 with Retry-After until the window resets", async () => {
    const remaining: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await limited.call("GET", "/profile");
      expect(response.status).toBe(200);
      remaining.push(response.headers["x-ratelimit-remaining"]!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await limited.call("GET", "/profile");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ reason: "Too many requests" }] });
    expect(Number(refused.headers["retry-after"])).toBe(10);
    clock.advance(10_000);
    expect((await limited.call("GET", "/profile")).status).toBe(200);
  });

  it("keeps a dedicated limit for lists apart from the general one", async () => {
    clock.advance(10_000);
    expect((await limited.call("GET", "/nodebalancers")).headers["x-ratelimit-limit"]).toBe("2");
    expect((await limited.call("GET", "/nodebalancers")).status).toBe(200);
    expect((await limited.call("GET", "/nodebalancers")).status).toBe(429);
    expect((await limited.call("GET", "/profile")).status).toBe(200);
  });
});
