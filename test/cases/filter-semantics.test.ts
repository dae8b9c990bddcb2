/**
 * The shared X-Filter table against both implementations: the oracle (a pure function) and the reference
 * server (over HTTPS, on a fresh server seeded with the table's instances). The oracle's own finer tests are in
 * `test/oracles/filter-oracle.test.ts`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkFilter, checkFilterHeader, evaluateFilter } from "../../src/oracles/filter-oracle.ts";
import { startReference } from "../helpers/reference.ts";
import {
  type FilterSemanticsCase,
  type InvalidFilterCase,
  instanceFields,
  instances,
  invalidCases,
  translateIds,
  validCases,
} from "./filter-semantics.cases.ts";

interface Implementation {
  readonly name: string;
  setup?(): Promise<void>;
  answer(filter: Record<string, unknown>): Promise<string[]>;
  refuse(header: string): Promise<{ refused: boolean; detail: unknown }>;
}

const oracle: Implementation = {
  name: "oracle",
  async answer(filter) {
    const verdict = checkFilter(filter, instanceFields);
    if (verdict.status !== "valid") throw new Error(`the oracle calls it ${verdict.status}`);
    return evaluateFilter(instances, verdict.filter).map((row) => row.label);
  },
  async refuse(header) {
    const verdict = checkFilterHeader(header, instanceFields);
    return { refused: verdict.status === "invalid", detail: verdict };
  },
};

const harness = await startReference();
let offset = 0;
const reference: Implementation = {
  name: "reference server",
  async setup() {
    const ids: number[] = [];
    for (const row of instances) {
      const created = await harness.call("POST", "/compute/instances", {
        json: {
          label: row.label,
          region: row.region,
          type: "g6-standard-1",
          group: row.group,
          tags: row.tags,
          booted: false,
          ...(row.image ? { image: row.image, root_pass: "c0rrect-Horse-battery-staple-17" } : {}),
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.id);
    }
    offset = ids[0]! - 1;
    // The table needs ids 1..n shifted by one offset: consecutive ids.
    expect(ids).toEqual(instances.map((row) => row.id + offset));
  },
  async answer(filter) {
    const response = await harness.call("GET", "/compute/instances?page_size=500", {
      headers: { "x-filter": JSON.stringify(translateIds(filter, offset)) },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.map((item: { label: string }) => item.label);
  },
  async refuse(header) {
    const response = await harness.call("GET", "/compute/instances", { headers: { "x-filter": header } });
    const errors: { field?: string; reason?: string }[] = response.body?.errors ?? [];
    return { refused: response.status === 400 && errors.length > 0, detail: response.body };
  },
};

describe.each([oracle, reference])("X-Filter semantics table: $name", (implementation) => {
  beforeAll(async () => implementation.setup?.());

  it.each(validCases)("$name", async ({ filter, expected }: FilterSemanticsCase) => {
    expect(await implementation.answer(filter)).toEqual(expected);
  });

  it.each(invalidCases)("refuses $name", async ({ header }: InvalidFilterCase) => {
    const { refused, detail } = await implementation.refuse(header);
    expect(refused, JSON.stringify(detail)).toBe(true);
  });
});

describe("X-Filter semantics table: the reference names an unfilterable field", () => {
  const unfilterable = invalidCases.filter((entry) => entry.field !== undefined);
  it.each(unfilterable)("$name", async ({ header, field }) => {
    const response = await harness.call("GET", "/compute/instances", { headers: { "x-filter": header } });
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({ reason: `Cannot filter on ${field}`, field: "X-Filter" });
  });
});
