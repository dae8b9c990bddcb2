/**
 * Answers of the real service as recorded traffic shows them (test/fixtures/recorded/: times in UTC without a zone
 * designator, extra fields, nulls) validate against specs/ through the loader's validators with formats checked
 * exactly; a time with `Z` or `+00:00` is the same UTC time and passes, any other offset is refused.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/index.ts";

interface Recorded {
  readonly operationId: string;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

const spec = await loadSpec(resolve(import.meta.dirname, "../../specs/cloud-api-v4.yaml"), {
  formats: "full",
});
const folder = resolve(import.meta.dirname, "../fixtures/recorded");
const recorded = readdirSync(folder)
  .filter((name) => name.endsWith(".json"))
  .map((name) => [name, JSON.parse(readFileSync(join(folder, name), "utf8")) as Recorded] as const);

function validate({ operationId, status, body }: Recorded) {
  const validator = spec.validators.response(operationId, status, "application/json");
  if (!validator) throw new Error(`specs/ has no ${status} schema for ${operationId}`);
  return validator(body);
}

describe("recorded answers of the real service", () => {
  it("are there to judge", () => {
    expect(recorded.length).toBeGreaterThanOrEqual(5);
  });

  it.each(recorded)("%s validates against specs/", (_name, answer) => {
    expect(validate(answer)).toEqual({ valid: true });
  });
});

describe("a recorded time with a zone designator", () => {
  const balancer = recorded.find(([name]) => name === "getNodeBalancer.json")![1];
  const withCreated = (created: string): Recorded => ({ ...balancer, body: { ...balancer.body, created } });
  const token = recorded.find(([name]) => name === "getPersonalAccessTokens.json")![1];
  const withExpiry = (expiry: string): Recorded => {
    const [first, ...rest] = token.body.data as Record<string, unknown>[];
    return { ...token, body: { ...token.body, data: [{ ...first, expiry }, ...rest] } };
  };

  it.each<[string, Recorded, boolean]>([
    ["as written: no designator", withCreated("2018-01-02T03:04:05"), true],
    ["Z", withCreated("2018-01-02T03:04:05Z"), true],
    ["+00:00", withCreated("2018-01-02T03:04:05+00:00"), true],
    ["+02:00", withCreated("2018-01-02T05:04:05+02:00"), false],
    ["-05:00", withCreated("2018-01-01T22:04:05-05:00"), false],
    ["-00:00 (offset unknown)", withCreated("2018-01-02T03:04:05-00:00"), false],
    ["fractions of a second", withCreated("2018-01-02T03:04:05.123"), false],
    ["a month that does not exist", withCreated("2018-13-02T03:04:05"), false],
    ["a space for T", withCreated("2018-01-02 03:04:05"), false],
    ["a nullable time: Z", withExpiry("2019-01-02T03:04:05Z"), true],
    ["a nullable time: +02:00", withExpiry("2019-01-02T03:04:05+02:00"), false],
  ])("%s: valid %s", (_name, answer, valid) => {
    expect(validate(answer).valid).toBe(valid);
  });
});
