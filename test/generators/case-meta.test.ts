import { describe, expect, it } from "vitest";
import { breaksOf, type CaseMeta, negative, positive } from "../../src/generators/case-meta.ts";

describe("breaksOf", () => {
  it.each<[string, CaseMeta, string | undefined]>([
    ["a positive case breaks nothing", positive("page-first"), undefined],
    [
      "one mutation, by field, with its detail",
      negative("body-wrong-type", {
        operator: "wrong-type",
        pointer: "/port",
        field: "port",
        detail: "a string",
      }),
      "port: wrong-type (a string)",
    ],
    [
      "several, by pointer when no field is named",
      negative("several", [
        { operator: "remove-required-property", pointer: "/region", field: "region" },
        { operator: "wrong-type", pointer: "" },
      ]),
      "region: remove-required-property; the whole value: wrong-type",
    ],
  ])("%s", (_name, meta, expected) => {
    expect(breaksOf(meta)).toBe(expected);
  });
});
