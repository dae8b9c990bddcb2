import { describe, expect, it } from "vitest";
import type { BodySchema } from "../../../src/generators/_internals/body-schema.ts";
import {
  type Candidate,
  combineIndependent,
  independentOf,
} from "../../../src/generators/mutations/index.ts";

const schema: BodySchema = { pointer: "", types: ["string"] };
const candidate = (
  pointer: string,
  operator = "change-type",
  extra: Partial<Candidate["site"]> = {},
): Candidate => ({
  site: { pointer, schema, present: true, required: false, entangled: false, ...extra },
  operator,
  edit: { kind: "set", value: 1, detail: "d" },
});

describe("combine-independent", () => {
  it.each([
    { name: "two sibling properties", a: candidate("/label"), b: candidate("/port"), independent: true },
    {
      name: "the same property twice",
      a: candidate("/label"),
      b: candidate("/label", "violate-bound"),
      independent: false,
    },
    {
      name: "a property and one inside it",
      a: candidate("/nodes"),
      b: candidate("/nodes/0/label"),
      independent: false,
    },
    {
      name: "a property whose name extends another's",
      a: candidate("/port"),
      b: candidate("/ports"),
      independent: true,
    },
    {
      name: "two items of one array",
      a: candidate("/nodes/0", "change-type", { arrayParent: "/nodes" }),
      b: candidate("/nodes/1", "change-type", { arrayParent: "/nodes" }),
      independent: false,
    },
    {
      name: "two properties tied by dependentRequired",
      a: candidate("/ssl_cert", "remove-required-property", { entangledWith: ["/ssl_key"] }),
      b: candidate("/ssl_key", "remove-required-property", { entangledWith: ["/ssl_cert"] }),
      independent: false,
    },
    { name: "the whole body and anything", a: candidate("/label"), b: candidate(""), independent: false },
  ])("$name: independent is $independent", ({ a, b, independent }) => {
    expect(independentOf(b, [a])).toBe(independent);
    if (b.site.pointer !== "") expect(independentOf(a, [b])).toBe(independent);
  });

  it("picks the operator first, then the place; fewer when fewer are independent", () => {
    const candidates = [
      candidate("/a"),
      candidate("/a", "violate-bound"),
      candidate("/b"),
      candidate("/c", "violate-enum"),
    ];
    expect(
      combineIndependent(candidates, 3, [0, 0, 0, 0, 0, 0]).map((c) => `${c.operator}${c.site.pointer}`),
    ).toEqual(["change-type/a", "change-type/b", "violate-enum/c"]);
    expect(
      combineIndependent(candidates, 3, [1, 0, 0, 0, 0, 0]).map((c) => `${c.operator}${c.site.pointer}`),
    ).toEqual(["violate-bound/a", "change-type/b", "violate-enum/c"]);
    expect(combineIndependent([candidate("/a"), candidate("/a/b")], 3, [0, 0, 0, 0, 0, 0])).toHaveLength(1);
    expect(combineIndependent([], 2, [0, 0, 0, 0])).toEqual([]);
  });
});
