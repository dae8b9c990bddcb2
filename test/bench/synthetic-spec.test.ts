/**
 * The bench's large synthetic description really is what section 1 claims: about 1 MB, 300+ operations, deep
 * `$ref`s (and a circular one), the same bytes for the same seed, and a valid description the loader indexes
 * in full (paginated lists with filterable fields, request bodies, shared responses). No timing here.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  generateSyntheticSpec,
  maxResponseRefDepth,
  prng,
  writeSyntheticSpec,
} from "../../bench/synthetic-spec.ts";
import { loadSpec } from "../../src/spec/load.ts";

const spec = generateSyntheticSpec();
const dir = mkdtempSync(join(tmpdir(), "conform-synthetic-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the synthetic description", () => {
  it("is about 1 MB of YAML with 300+ operations", () => {
    expect(spec.bytes).toBeGreaterThan(900 * 1024);
    expect(spec.bytes).toBeLessThan(1400 * 1024);
    expect(spec.operations).toBeGreaterThanOrEqual(300);
  });

  it("is deterministic: the same seed gives the same bytes, another seed other bytes", () => {
    expect(generateSyntheticSpec().text).toBe(spec.text);
    expect(generateSyntheticSpec({ seed: 7 }).text).not.toBe(spec.text);
  });

  it("has response schemas more than 10 $refs deep, and a circular schema", () => {
    expect(maxResponseRefDepth(spec.document)).toBeGreaterThan(10);
    const schemas = (spec.document.components as { schemas: Record<string, unknown> }).schemas;
    expect(JSON.stringify(schemas.TreeNode)).toContain("#/components/schemas/TreeNode");
  });

  it("scales with its options", () => {
    const small = generateSyntheticSpec({ resources: 6, chainDepth: 2, descriptionWords: 2 });
    expect(small.operations).toBe(6 * 5 + 3 + 2);
    expect(maxResponseRefDepth(small.document)).toBeLessThan(maxResponseRefDepth(spec.document));
  });

  it("loads through loadSpec with validation on, and every operation is indexed", async () => {
    const written = writeSyntheticSpec({}, dir);
    expect(readFileSync(written.path, "utf8")).toBe(spec.text);
    const loaded = await loadSpec(written.path);
    const operations = loaded.operations.all();
    expect(loaded.dialect).toBe("openapi-3.1");
    expect(operations).toHaveLength(spec.operations);
    const lists = operations.filter((operation) => operation.paginated);
    expect(lists.length).toBeGreaterThan(50);
    expect(lists.every((operation) => operation.filterableFields.some((field) => field.name === "id"))).toBe(
      true,
    );
    expect(operations.filter((operation) => operation.requestBody).length).toBeGreaterThan(100);
    expect(loaded.operations.match("GET", "/compute/volumes/12")?.operation.operationId).toBe("getVolume");
  });

  it("compiles validators that judge bodies (a list page, a bad one)", async () => {
    const loaded = await loadSpec(writeSyntheticSpec({ resources: 4, chainDepth: 3 }, dir).path);
    const validate = loaded.validators.response("listVolumes", 200);
    expect(validate?.({ data: [], page: 1, pages: 1, results: 0 })).toEqual({ valid: true });
    expect(validate?.({ data: [{ id: "not an integer" }], page: 1, pages: 1, results: 1 }).valid).toBe(false);
  });
});

describe("prng", () => {
  it("repeats its sequence for a seed, in [0, 1)", () => {
    const a = prng(42);
    const b = prng(42);
    const values = Array.from({ length: 100 }, () => a());
    expect(values).toEqual(Array.from({ length: 100 }, () => b()));
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
