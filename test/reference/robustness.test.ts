/**
 * The reference server never answers 500 and never crashes, whatever it is sent: random JSON of every shape to
 * every operation that takes a body, hostile headers and paths. Every answer must still match the spec.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { startReference } from "../helpers/reference.ts";

const harness = await startReference({ timeScale: 0.01 });

/** A concrete path for a template: ids that exist for some requests and not for others. */
const pathFor = (template: string) =>
  fc
    .tuple(fc.constantFrom("1", "1001", "2001", "99999999999999999999", "%2e%2e", "abc", "-1"))
    .map(([id]) => template.replace(/\{[^}]+\}/g, id));

const operations = harness.spec.operations
  .all()
  .filter((operation) => operation.requestBody !== undefined && operation.serverUrl === undefined);

describe("the reference server survives hostile input", () => {
  it("has operations with bodies to throw things at", () => {
    expect(operations.length).toBeGreaterThan(10);
  });

  it.each(operations.map((operation) => [operation.operationId, operation] as const))(
    "%s: random JSON bodies never get a 5xx",
    async (_id, operation) => {
      await fc.assert(
        fc.asyncProperty(
          pathFor(operation.pathTemplate),
          fc.jsonValue({ maxDepth: 4 }),
          async (path, body) => {
            const response = await harness.call(operation.method.toUpperCase(), path, {
              json: body,
              unchecked: true,
            });
            expect(response.status).toBeLessThan(500);
            expect(response.body).toBeTypeOf("object");
          },
        ),
        { numRuns: 25, seed: 20261123 },
      );
    },
  );

  it.each([
    ["huge numbers", '{"region":"us-east","client_conn_throttle":1e400,"label":"big-numbers"}'],
    ["a string of 100k characters", JSON.stringify({ region: "us-east", label: "x".repeat(100_000) })],
    ["deep nesting", `{"region":${"[".repeat(50_000)}${"]".repeat(50_000)}}`],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString("latin1")],
    ["a lone surrogate", '{"label":"\\ud800"}'],
  ])("POST /nodebalancers with %s gets a 4xx", async (_name, raw) => {
    const response = await harness.call("POST", "/nodebalancers", { raw, contentType: "application/json" });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it.each([
    [
      "a filter nested a thousand levels",
      { "x-filter": `${'{"+and":['.repeat(1000)}{}${"]}".repeat(1000)}` },
    ],
    ["a filter that is a number", { "x-filter": "42" }],
  ])("GET /nodebalancers with %s gets a 400", async (_name, headers) => {
    const response = await harness.call("GET", "/nodebalancers", { headers });
    expect(response.status).toBe(400);
  });

  it("takes __proto__ and constructor keys as plain data, polluting nothing", async () => {
    const raw = '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"region":"us-east"}';
    const response = await harness.call("POST", "/nodebalancers", { raw, contentType: "application/json" });
    expect(response.status).toBe(200);
    expect(response.body.admin).toBeUndefined();
    expect(({} as { admin?: unknown }).admin).toBeUndefined();
  });

  it("filters on a value holding a NUL without trouble (nothing matches)", async () => {
    const response = await harness.call("GET", "/nodebalancers", {
      headers: { "x-filter": '{"label":"a\\u0000b"}' },
    });
    expect(response.status).toBe(200);
    expect(response.body.results).toBe(0);
  });

  it("answers 200 requests sent at once, and still works after them", async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        index % 2
          ? harness.call("GET", "/compute/types", { token: null })
          : harness.call("POST", "/nodebalancers", { json: { region: "us-east" } }),
      ),
    );
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    expect((await harness.call("GET", "/regions", { token: null })).status).toBe(200);
  });
});
