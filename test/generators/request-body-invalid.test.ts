/**
 * `requestBodyInvalid`: every body is refused by the spec's compiled request validator exactly where its provenance
 * says (each issue lies at or under a mutation's pointer, and each mutation's pointer has an issue), and the field
 * the provenance names is the one the validator names there. Judged over every JSON request body of the bundled
 * description and of the mini cloud in each dialect, for one rule and for several. Same seed, same bodies; every
 * operator is reached; no undeclared property is ever added; a failing property shrinks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Generated, mutationsOf } from "../../src/generators/case-meta.ts";
import { singleRuleMutators } from "../../src/generators/mutations/index.ts";
import { type BodySchema, requestSchemaOf } from "../../src/generators/request-body.ts";
import {
  isBreakable,
  requestBodyInvalid,
  severalRulesScenario,
} from "../../src/generators/request-body-invalid.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { childPointer, parsePointer } from "../../src/spec/pointer.ts";
import { refusedWithoutField } from "../../src/spec/refused-without-field.ts";
import type { ApiSpec, ValidationIssue } from "../../src/spec/types.ts";
import { tinyDescription } from "../helpers/descriptions.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { dialectFixtures } from "../spec/helpers.ts";
import {
  assertCovers,
  assertEveryValue,
  assertSameSeedSameValues,
  assertShrinks,
} from "./arbitrary-assertions.ts";

const bundled = await bundledSpec();
const dialects = await Promise.all(
  dialectFixtures.map(async ({ dialect, file }) => ({ dialect, spec: await loadSpec(file) })),
);

function jsonBodies(spec: ApiSpec): string[] {
  return spec.operations
    .all()
    .filter((operation) => requestSchemaOf(spec, operation.operationId) !== undefined)
    .map((operation) => operation.operationId);
}

const cases = [
  ...jsonBodies(bundled).map((operationId) => ({
    name: `bundled ${operationId}`,
    spec: bundled,
    operationId,
  })),
  ...dialects.flatMap(({ dialect, spec }) =>
    jsonBodies(spec).map((operationId) => ({ name: `${dialect} ${operationId}`, spec, operationId })),
  ),
];

/** Where an issue is: for a missing property, the property's own pointer. */
function issuePointer(issue: ValidationIssue): string {
  const missing = issue.params.missingProperty;
  return (issue.keyword === "required" || issue.keyword === "dependentRequired") &&
    typeof missing === "string"
    ? childPointer(issue.instancePath, missing)
    : issue.instancePath;
}

const under = (pointer: string, root: string) =>
  root === "" || pointer === root || pointer.startsWith(`${root}/`);

/** What is wrong with an invalid body against its provenance (undefined: it is exactly as it says). */
function exactness(spec: ApiSpec, operationId: string, generated: Generated<unknown>): string | undefined {
  if (generated.meta.mode !== "negative") return "provenance is not negative";
  const mutations = mutationsOf(generated.meta);
  if (mutations.length === 0) return "no mutation in the provenance";
  const outcome = spec.validators.request(operationId, "application/json")!(generated.value);
  if (outcome.valid) return "the validator accepts it";
  const stray = outcome.issues.filter(
    (issue) => !mutations.some((mutation) => under(issuePointer(issue), mutation.pointer)),
  );
  if (stray.length > 0) return `issues outside the mutations: ${JSON.stringify(stray.map(issuePointer))}`;
  for (const mutation of mutations) {
    const here = outcome.issues.filter((issue) => under(issuePointer(issue), mutation.pointer));
    if (here.length === 0) return `no issue at ${mutation.pointer} (${mutation.operator})`;
    // The validator's own field names (spec/issues.ts) for the same place: the name the provenance must give.
    const named = here.find((issue) => issuePointer(issue) === mutation.pointer);
    const expected = named?.field;
    // Where the description says the refusal names no field (allocateIP's type), the provenance names none.
    const unnamed = refusedWithoutField(spec, operationId, parsePointer(mutation.pointer) ?? []);
    if (unnamed && mutation.field !== undefined)
      return `provenance names ${mutation.field}, refused without a field`;
    if (!unnamed && mutation.pointer !== "" && expected !== undefined && expected !== mutation.field) {
      return `provenance names ${mutation.field}, the validator ${expected}`;
    }
  }
  return undefined;
}

/** Every property of `value` (recursively) is declared by `schema`. */
function undeclared(schema: BodySchema, value: unknown, at = ""): string[] {
  if (Array.isArray(value))
    return schema.items
      ? value.flatMap((item, index) => undeclared(schema.items!, item, `${at}/${index}`))
      : [];
  if (typeof value !== "object" || value === null || !schema.properties) return [];
  return Object.entries(value).flatMap(([name, item]) => {
    const property = schema.properties![name];
    return property ? undeclared(property, item, `${at}/${name}`) : [`${at}/${name}`];
  });
}

describe("requestBodyInvalid", () => {
  it.each(cases)("$name: one rule, refused exactly where the provenance says", ({ spec, operationId }) => {
    const schema = requestSchemaOf(spec, operationId)!;
    assertEveryValue(requestBodyInvalid(schema), (generated) => {
      if (mutationsOf(generated.meta).length !== 1) return "not exactly one mutation";
      if (generated.meta.scenario !== `body-${mutationsOf(generated.meta)[0]!.operator}`) return "scenario";
      return exactness(spec, operationId, generated);
    });
  });

  it.each(cases)("$name: several rules, each refused where it was broken", ({ spec, operationId }) => {
    const schema = requestSchemaOf(spec, operationId)!;
    assertEveryValue(requestBodyInvalid(schema, { rules: { min: 2, max: 3 } }), (generated) => {
      const mutations = mutationsOf(generated.meta);
      if (mutations.length > 1 && generated.meta.scenario !== severalRulesScenario) return "scenario";
      if (new Set(mutations.map((mutation) => mutation.pointer)).size !== mutations.length)
        return "two at one place";
      return exactness(spec, operationId, generated);
    });
  });

  it.each(cases)("$name: the same seed gives the same bodies", ({ spec, operationId }) => {
    assertSameSeedSameValues(
      requestBodyInvalid(requestSchemaOf(spec, operationId)!, { rules: { min: 1, max: 3 } }),
    );
  });

  it.each(cases)("$name: never adds a property the schema does not declare", ({ spec, operationId }) => {
    const schema = requestSchemaOf(spec, operationId)!;
    for (const generated of fc.sample(requestBodyInvalid(schema, { rules: { min: 1, max: 3 } }), {
      seed: 4,
      numRuns: 200,
    })) {
      expect(undeclared(schema, generated.value)).toEqual([]);
    }
  });

  it("breaks several rules at once where the body has room, up to the count asked", () => {
    const schema = requestSchemaOf(bundled, "createNodeBalancerConfig")!;
    const counts = fc
      .sample(requestBodyInvalid(schema, { rules: 3 }), { seed: 8, numRuns: 200 })
      .map((generated) => mutationsOf(generated.meta).length);
    expect(Math.min(...counts)).toBe(3);
    expect(Math.max(...counts)).toBe(3);
  });

  it("reaches every operator but the discriminator's over the bundled description's bodies", () => {
    const all = fc.oneof(
      ...jsonBodies(bundled).map((operationId) => requestBodyInvalid(requestSchemaOf(bundled, operationId)!)),
    );
    // The bundled description has no discriminator: the alternatives' table below reaches that operator.
    assertCovers(
      all,
      singleRuleMutators
        .map((mutator) => mutator.operator)
        .filter((operator) => operator !== "violate-discriminator"),
      800,
      (generated) => mutationsOf(generated.meta)[0]!.operator,
    );
  });

  it("names nested fields the API's way (nodes[1].address)", () => {
    const schema = requestSchemaOf(bundled, "rebuildNodeBalancerConfig")!;
    const nested = fc
      .sample(requestBodyInvalid(schema, { operators: ["violate-pattern"] }), { seed: 2, numRuns: 300 })
      .flatMap((generated) => mutationsOf(generated.meta))
      .filter((mutation) => mutation.pointer.startsWith("/nodes/"));
    expect(nested.length).toBeGreaterThan(0);
    for (const mutation of nested) {
      expect(mutation.field).toMatch(/^nodes\[\d+\]\.(label|address)$/);
      expect(mutation.pointer).toBe(
        `/nodes/${/\[(\d+)\]/.exec(mutation.field!)![1]}/${mutation.field!.split(".")[1]}`,
      );
    }
  });

  it("keeps only the operators asked for", () => {
    const schema = requestSchemaOf(bundled, "createNodeBalancer")!;
    const operators = fc
      .sample(requestBodyInvalid(schema, { operators: ["remove-required-property"] }), {
        seed: 3,
        numRuns: 50,
      })
      .map((generated) => mutationsOf(generated.meta)[0]!.operator);
    expect(new Set(operators)).toEqual(new Set(["remove-required-property"]));
    expect(() => requestBodyInvalid(schema, { operators: ["no-such-operator"] })).toThrow(/no mutator/);
  });

  it("refuses a schema that allows any body, which has no invalid one", () => {
    expect(isBreakable({ pointer: "/any" })).toBe(false);
    expect(isBreakable({ pointer: "/free", properties: { note: { pointer: "/free/note" } } })).toBe(false);
    expect(isBreakable({ pointer: "/obj", types: ["object"] })).toBe(true);
    expect(isBreakable({ pointer: "/req", required: ["a"], properties: { a: { pointer: "/req/a" } } })).toBe(
      true,
    );
    expect(() => requestBodyInvalid({ pointer: "/any" })).toThrow(/allows any body/);
  });

  it("shrinks a failing property to a smaller invalid body that still fails", () => {
    const schema = requestSchemaOf(bundled, "createComputeInstance")!;
    const shrunk = assertShrinks(
      requestBodyInvalid(schema),
      (generated) => mutationsOf(generated.meta)[0]!.operator === "violate-bound",
    );
    expect(exactness(bundled, "createComputeInstance", shrunk)).toBeUndefined();
    // Only the required properties are left, and the one broken.
    const broken = mutationsOf(shrunk.meta)[0]!.pointer.slice(1);
    expect(new Set(Object.keys(shrunk.value as object))).toEqual(new Set(["region", "type", broken]));
  });
});

/** A body schema whose root is an `anyOf`/`oneOf`, and the rules an invalid body of it must reach. */
interface AlternativesRow {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** `operator pointer` of mutations drawn at least once (the pointer in the body). */
  readonly reaches: readonly string[];
}

const single = {
  type: "object",
  properties: { name: { type: "string", minLength: 1, maxLength: 8 }, size: { enum: ["s", "m"] } },
  required: ["name", "size"],
};
const multi = {
  type: "object",
  properties: { names: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 } },
  required: ["names"],
};
const reboot = {
  type: "object",
  properties: { type: { type: "string", enum: ["reboot"] } },
  required: ["type"],
};
const resize = {
  type: "object",
  properties: { type: { type: "string", enum: ["resize"] }, size: { type: "integer", minimum: 1 } },
  required: ["type", "size"],
};

const alternativesRows: readonly AlternativesRow[] = [
  {
    name: "oneOf of two objects, no root type (one or several droplets)",
    schema: { oneOf: [single, multi] },
    reaches: [
      "remove-required-property /name",
      "remove-required-property /names",
      "violate-bound /name",
      "violate-enum /size",
      "change-type ",
      "null-where-not-nullable ",
    ],
  },
  {
    name: "anyOf of actions with a discriminator",
    schema: {
      anyOf: [reboot, resize],
      discriminator: { propertyName: "type", mapping: { reboot: "#/r", resize: "#/s" } },
    },
    reaches: ["violate-discriminator /type", "violate-enum /type", "violate-bound /size", "change-type "],
  },
  {
    name: "anyOf of required sets beside the properties (a firewall's rules)",
    schema: {
      type: "object",
      properties: {
        inbound: { type: "array", items: { type: "string", pattern: "^[a-z]+$" } },
        outbound: { type: "array", items: { type: "string", pattern: "^[a-z]+$" } },
      },
      anyOf: [{ required: ["inbound"] }, { required: ["outbound"] }],
    },
    reaches: ["remove-required-property /inbound", "violate-pattern /inbound/0", "change-type /outbound"],
  },
  {
    name: "oneOf nested in a property",
    schema: {
      type: "object",
      properties: { target: { oneOf: [single, multi] } },
      required: ["target"],
    },
    reaches: ["remove-required-property /target/name", "change-type /target", "violate-bound /target/name"],
  },
];

describe("requestBodyInvalid inside anyOf and oneOf bodies", () => {
  const specs = new Map<string, ApiSpec>();
  const specOf = async (row: AlternativesRow) => {
    const body = { required: true, content: { "application/json": { schema: row.schema } } };
    const spec =
      specs.get(row.name) ??
      (await tinyDescription({
        "/things": { post: { operationId: "act", requestBody: body, responses: {} } },
      }));
    specs.set(row.name, spec);
    return spec;
  };

  it.each(alternativesRows)("$name: every body matches no branch (the compiled validator)", async (row) => {
    const spec = await specOf(row);
    const schema = requestSchemaOf(spec, "act")!;
    const validate = spec.validators.request("act", "application/json")!;
    for (const rules of [1, { min: 2, max: 3 }] as const) {
      assertEveryValue(requestBodyInvalid(schema, { rules }), (generated) =>
        validate(generated.value).valid ? "the validator accepts it" : undefined,
      );
    }
  });

  it.each(alternativesRows)("$name: breaks the rules of the branch the body took", async (row) => {
    const spec = await specOf(row);
    const seen = new Set(
      fc
        .sample(requestBodyInvalid(requestSchemaOf(spec, "act")!), { seed: 5, numRuns: 600 })
        .flatMap((generated) => mutationsOf(generated.meta))
        .map((mutation) => `${mutation.operator} ${mutation.pointer}`),
    );
    expect(row.reaches.filter((reached) => !seen.has(reached))).toEqual([]);
  });
});
