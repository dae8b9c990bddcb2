/**
 * `operationRequest` and `operationRequestInvalid` over every operation of the bundled description and of the mini
 * cloud in each dialect: a valid request (minimal or full) follows the description as the runner's own request
 * check reads it (parameters, body against the compiled request schema); an invalid one breaks it where its
 * provenance says (the body validator refuses a body mutation at its pointer, the request check refuses a
 * parameter's), in body, query and path, one rule or several. Same seed, same requests.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Generated } from "../../src/generators/case-meta.ts";
import { mutationsOf } from "../../src/generators/case-meta.ts";
import {
  type OperationRequest,
  operationRequest,
  pathValueFits,
  unbuildableRequest,
} from "../../src/generators/operation-request.ts";
import {
  breakableIn,
  brokenRulesOf,
  operationRequestInvalid,
} from "../../src/generators/operation-request-invalid.ts";
import { requestConformance } from "../../src/runner/request-conformance.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { ApiSpec, OperationInfo } from "../../src/spec/types.ts";
import { bodyAt, eitherRuleList, overlappingOneOf, tinyDescription } from "../helpers/descriptions.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { dialectFixtures } from "../spec/helpers.ts";
import { assertEveryValue, assertSameSeedSameValues } from "./arbitrary-assertions.ts";

const bundled = await bundledSpec();
const dialects = await Promise.all(dialectFixtures.map(async ({ file }) => loadSpec(file)));
const base = "https://api.example.test/v4";
const target = { baseUrl: base, authUrl: "https://login.example.test", embedded: false, writesAllowed: true };

const cases = [bundled, ...dialects].flatMap((spec) =>
  spec.operations
    .all()
    .filter((operation) => operation.serverUrl === undefined && !unbuildableRequest(spec, operation))
    .map((operation) => ({ name: `${spec.dialect} ${operation.operationId}`, spec, operation })),
);

function urlOf(operation: OperationInfo, request: OperationRequest): string {
  const path = operation.pathTemplate.replace(/\{([^}]+)\}/g, (_all, name: string) =>
    encodeURIComponent(String(request.path[name])),
  );
  const url = new URL(`${base}${path}`);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, String(value));
  return url.toString();
}

function breachOf(spec: ApiSpec, operation: OperationInfo, request: OperationRequest) {
  return requestConformance(
    spec,
    target,
  )({
    method: operation.method.toUpperCase(),
    url: urlOf(operation, request),
    contentType: request.body === undefined ? undefined : "application/json",
    payload: request.body === undefined ? undefined : { kind: "json", value: request.body },
  });
}

describe("operationRequest", () => {
  it("finds operations in every dialect", () => {
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases)("$name: valid requests follow the description", ({ spec, operation }) => {
    for (const minimal of [true, false]) {
      assertEveryValue(operationRequest(spec, operation, { minimal }), (generated) => {
        if (generated.meta.mode !== "positive") return "provenance is not positive";
        const breach = breachOf(spec, operation, generated.value);
        return breach ? `${breach.field}: ${breach.message}` : undefined;
      });
    }
  });

  it("uses the path values it is given, and says which values are free text", () => {
    const operation = bundled.operations.byId("getNodeBalancerConfig")!;
    const [sample] = fc.sample(
      operationRequest(bundled, operation, { pathValues: { nodeBalancerId: 7, configId: 9 } }),
      1,
    );
    expect(sample!.value.path).toEqual({ nodeBalancerId: 7, configId: 9 });
    const create = bundled.operations.byId("createNodeBalancer")!;
    const [created] = fc.sample(operationRequest(bundled, create, { minimal: false }), {
      numRuns: 1,
      seed: 3,
    });
    const body = created!.value.body as Record<string, unknown>;
    // Drawn text (`region`; `label`, shaped by a pattern) is not pinned down; a boolean or an enum is.
    expect(created!.value.unpinned).toContain("region");
    // A name is a field's place (`label`, `tags[0]`): each is drawn text in the body.
    const at = (place: string): unknown =>
      place
        .split(/[.[\]]+/)
        .filter((part) => part !== "")
        .reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], body);
    for (const name of created!.value.unpinned) expect(typeof at(name), name).toBe("string");
    const given = fc.sample(
      operationRequest(bundled, create, { bodyOverrides: { "/region": fc.constant("r") } }),
      1,
    );
    expect(given[0]!.value.unpinned).not.toContain("region");
  });

  it("a path value found in an answer fits only with the parameter's format (an IPv6 is no IPv4)", () => {
    const getIP = bundled.operations.byId("getIP")!;
    expect(pathValueFits(bundled, getIP, "address", "192.0.2.7")).toBe(true);
    expect(pathValueFits(bundled, getIP, "address", "547b:e506:00dc:e258:246f:6e67:006e:7c3b")).toBe(false);
    const getNodeBalancer = bundled.operations.byId("getNodeBalancer")!;
    expect(pathValueFits(bundled, getNodeBalancer, "nodeBalancerId", 0)).toBe(false);
    expect(pathValueFits(bundled, getNodeBalancer, "nodeBalancerId", 12)).toBe(true);
  });

  it("same seed, same requests", () => {
    assertSameSeedSameValues(operationRequest(bundled, bundled.operations.byId("createNodeBalancer")!));
  });
});

function hasFormat(operation: OperationInfo, name: string): boolean {
  const schema = operation.parameters.find((parameter) => parameter.name === name)?.schema;
  return typeof schema === "object" && typeof schema.format === "string";
}

function refusedWhereItSays(spec: ApiSpec, operation: OperationInfo, generated: Generated<OperationRequest>) {
  if (generated.meta.mode !== "negative") return "provenance is not negative";
  const broken = brokenRulesOf(generated.meta);
  if (broken.length === 0) return "no rule broken";
  const request = generated.value;
  for (const rule of broken) {
    if (rule.in === "body") {
      const validator = spec.validators.request(operation.operationId, "application/json");
      if (request.body === undefined) {
        if (!operation.requestBody?.required) return "a body left out that is not required";
        continue;
      }
      const outcome = validator!(request.body);
      if (outcome.valid) return `the body validator accepts a body broken at ${rule.at}`;
    } else if (rule.rule !== "violate-pattern" && !hasFormat(operation, rule.at)) {
      // The runner's light parameter check reads types, enums, bounds and lengths (not patterns nor formats).
      const breach = breachOf(spec, operation, { ...request, body: undefined });
      // A path value of the wrong type is another URL: it matches no operation (the target answers 404 or 400).
      const path = new URL(urlOf(operation, request)).pathname.replace(/^\/v4/, "");
      if (spec.operations.match(operation.method, path)?.operation !== operation) continue;
      // The request check names the first breach only: with several rules, one in the parameters is enough.
      if (!breach || (broken.length === 1 && !breach.field.startsWith(`${rule.in}.`)))
        return `${rule.in} ${rule.at} (${rule.rule}) not refused`;
    }
  }
  return undefined;
}

describe("operationRequestInvalid", () => {
  const breakable = cases.filter(({ spec, operation }) =>
    (["body", "query", "path"] as const).some((part) => breakableIn(spec, operation, part)),
  );

  it.each(breakable)("$name: one rule, broken where the provenance says", ({ spec, operation }) => {
    assertEveryValue(operationRequestInvalid(spec, operation), (generated) => {
      if (mutationsOf(generated.meta).length !== 1) return "not exactly one mutation";
      return refusedWhereItSays(spec, operation, generated);
    });
  });

  it.each(breakable)("$name: several rules across parts", ({ spec, operation }) => {
    assertEveryValue(operationRequestInvalid(spec, operation, { rules: { min: 2, max: 3 } }), (generated) =>
      refusedWhereItSays(spec, operation, generated),
    );
  });

  it("breaks rules in query and path parameters, as text a server reads", () => {
    const list = bundled.operations.byId("getNodeBalancerConfigs")!;
    const parts = new Set(
      fc
        .sample(operationRequestInvalid(bundled, list, { parts: ["query", "path"] }), {
          numRuns: 60,
          seed: 5,
        })
        .flatMap((generated) => brokenRulesOf(generated.meta).map((rule) => rule.in)),
    );
    expect([...parts].sort()).toEqual(["path", "query"]);
  });
});

describe("operationRequestInvalid on a body of alternatives", () => {
  const untyped = { properties: { ids: { type: "array", items: { type: "integer" } } }, required: ["ids"] };
  const descriptionOf = (schema: unknown) => tinyDescription(bodyAt("/things", "act", schema));

  it("drops what another branch accepts, and says so", async () => {
    const spec = await descriptionOf(eitherRuleList);
    const operation = spec.operations.byId("act")!;
    const dropped: string[] = [];
    const arbitrary = operationRequestInvalid(spec, operation, {
      parts: ["body"],
      onStillValid: (line) => dropped.push(line),
    });
    assertEveryValue(arbitrary, (generated) => refusedWhereItSays(spec, operation, generated));
    expect(dropped.some((line) => line.startsWith("/body/inbound: remove-required-property"))).toBe(true);
  });

  it("gives a body no value fits (a oneOf whose branches overlap) a body of a type no branch allows", async () => {
    const spec = await descriptionOf(overlappingOneOf);
    const operation = spec.operations.byId("act")!;
    expect(breakableIn(spec, operation, "body")).toBe(true);
    const arbitrary = operationRequestInvalid(spec, operation, { parts: ["body"], wholeBodyOnly: true });
    assertEveryValue(arbitrary, (generated) => {
      const [rule] = brokenRulesOf(generated.meta);
      if (rule?.rule !== "change-type" || rule.at !== "")
        return `not a body of the wrong type: ${rule?.rule}`;
      return refusedWhereItSays(spec, operation, generated);
    });
  });

  it("draws an object where the body names no type but declares properties, and breaks it inside", async () => {
    const spec = await descriptionOf(untyped);
    const operation = spec.operations.byId("act")!;
    for (const generated of fc.sample(operationRequest(spec, operation), { numRuns: 30, seed: 2 })) {
      expect(generated.value.body).toEqual({ ids: expect.any(Array) });
    }
    const pointers = fc
      .sample(operationRequestInvalid(spec, operation, { parts: ["body"] }), { numRuns: 60, seed: 2 })
      .flatMap((generated) => brokenRulesOf(generated.meta).map((rule) => `${rule.rule} ${rule.at}`));
    expect(pointers).toContain("remove-required-property /ids");
  });
});
