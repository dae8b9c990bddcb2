/**
 * Section 1's helpers: which status number each documented response answers for (so "compile all validators"
 * really reaches every schema, ranges and `default` included), and the list of validator calls.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { representativeCall, statusFor, validatorCalls } from "../../bench/spec-loading.ts";
import { loadSpec } from "../../src/spec/load.ts";

describe("statusFor", () => {
  it("takes an exact status as it is", () => {
    expect(statusFor("200", ["200", "default"])).toBe(200);
  });

  it("picks, for a range, a status of that range that no exact response claims", () => {
    expect(statusFor("4XX", ["400", "401", "4XX"])).toBe(402);
    expect(statusFor("2xx", ["2xx"])).toBe(200);
  });

  it("picks, for default, a status neither an exact response nor a range claims", () => {
    expect(statusFor("default", ["200", "5XX", "default"])).toBe(499);
    expect(statusFor("default", ["599", "default"])).toBe(598);
  });

  it("has no answer for what is not a status", () => {
    expect(statusFor("x-extension", [])).toBeUndefined();
  });
});

describe("validatorCalls", () => {
  it("asks for every response body and request body of the bundled description, each compiling", async () => {
    const spec = await loadSpec(resolve(import.meta.dirname, "../../specs/cloud-api-v4.yaml"));
    const operations = spec.operations.all();
    const calls = validatorCalls(operations);
    const withSchemas = operations.flatMap((operation) =>
      operation.responses
        .filter((response) => response.hasSchema)
        .flatMap((response) => response.contentTypes),
    ).length;
    const requests = operations.flatMap((operation) => operation.requestBody?.contentTypes ?? []).length;
    expect(calls).toHaveLength(withSchemas + requests);
    representativeCall(operations)(spec);
    expect(spec.validators.compiledCount()).toBe(1);
    const answers = calls.map((call) => call(spec));
    expect(answers.filter((validator) => typeof validator === "function").length).toBeGreaterThan(0);
    expect(spec.validators.compiledCount()).toBeGreaterThan(10);
  });
});
