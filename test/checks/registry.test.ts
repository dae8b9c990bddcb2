/**
 * The registry is the one list of built-in checks: every check file is registered under its file name, and every
 * check returns an outcome for any exchange instead of throwing (ARCHITECTURE.md "How to add things").
 */
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtinChecks, isBuiltinCheckId, listChecks } from "../../src/checks/index.ts";
import type { AnsweredExchange } from "../../src/checks/types.ts";
import type { Validator } from "../../src/spec/types.ts";
import {
  context,
  exchange,
  loginFormOperation,
  loginRedirectOperation,
  operation,
  stubSpec,
} from "../helpers/exchanges.ts";

const checksDir = resolve(import.meta.dirname, "../../src/checks");
const checkFiles = readdirSync(checksDir, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
  .map((entry) => entry.name.replace(/\.ts$/, ""))
  .filter((name) => name !== "index" && name !== "types");

describe("builtinChecks", () => {
  it("registers every check file under its file name, and nothing else", () => {
    expect(Object.keys(builtinChecks).sort()).toEqual([...checkFiles].sort());
  });

  it.each(Object.entries(builtinChecks))(
    "%s: id = key, kebab-case, with a one-line title",
    (key, definition) => {
      expect(definition.id).toBe(key);
      expect(key).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(definition.title.trim()).not.toBe("");
      expect(definition.title).not.toContain("\n");
    },
  );

  it("lists every check once, in registration order", () => {
    expect(listChecks().map((definition) => definition.id)).toEqual(Object.keys(builtinChecks));
  });

  it("tells built-in ids from others", () => {
    expect(isBuiltinCheckId("body-matches-schema")).toBe(true);
    expect(isBuiltinCheckId("toString")).toBe(false);
    expect(isBuiltinCheckId("no-such-check")).toBe(false);
  });
});

describe("every check, on any exchange", () => {
  const headerNames = [
    "content-type",
    "x-spec-version",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "retry-after",
    "location",
    "x-oauth-scopes",
  ];
  const headerValue = fc.oneof(
    fc.string(),
    fc.integer().map(String),
    fc.constantFrom("application/json", "application/json; charset=latin1", "text/html", "4.176.0", ";", "/"),
  );
  const anyExchange: fc.Arbitrary<AnsweredExchange> = fc.oneof(
    fc
      .record({
        method: fc.constantFrom("GET", "HEAD", "POST", "delete"),
        path: fc.constantFrom(
          "/nodebalancers",
          "/nowhere?x=1",
          "not a url",
          "https://auth.example.test/oauth/authorize",
        ),
        status: fc.integer({ min: 100, max: 599 }),
        headers: fc.dictionary(fc.constantFrom(...headerNames), headerValue),
        json: fc.option(fc.jsonValue(), { nil: undefined }),
        text: fc.option(fc.string(), { nil: undefined }),
        truncated: fc.boolean(),
      })
      .map((init) => exchange(init)),
  );
  const anyOperation = fc.constantFrom(
    undefined,
    operation(),
    loginFormOperation(),
    loginRedirectOperation(),
  );
  const anyValidator = fc.constantFrom<Validator | undefined>(
    undefined,
    () => ({ valid: true }),
    () => ({ valid: false, issues: [] }),
    () => ({
      valid: false,
      issues: [{ instancePath: "/a", field: "a", keyword: "type", message: "must be string", params: {} }],
    }),
  );

  it("returns a passed, failed (with a message) or skipped (with a reason) outcome or none, never throws", () => {
    fc.assert(
      fc.property(
        anyExchange,
        anyOperation,
        anyValidator,
        fc.integer({ min: 0, max: 2 ** 42 }),
        (ex, op, validator, now) => {
          const ctx = context({
            spec: stubSpec({ validators: () => validator }),
            operation: op,
            receivedAt: now,
          });
          for (const definition of listChecks()) {
            const outcome = definition.check(ctx, ex, definition.state?.());
            if (outcome === undefined) continue; // not an exchange it is about
            if (outcome.status === "failed") expect(outcome.message).not.toBe("");
            else if (outcome.status === "skipped") expect(outcome.reason).not.toBe("");
            else expect(outcome.status).toBe("passed");
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
