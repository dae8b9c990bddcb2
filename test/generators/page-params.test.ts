import { describe, it } from "vitest";
import { mutationsOf } from "../../src/generators/case-meta.ts";
import { pageParams } from "../../src/generators/page-params.ts";
import { expectPage } from "../../src/oracles/pagination-oracle.ts";
import { assertCovers, assertEveryValue, assertSameSeedSameValues } from "./arbitrary-assertions.ts";

describe("pageParams", () => {
  it("same seed, same values", () => assertSameSeedSameValues(pageParams({ results: 43 })));

  it.each([0, 1, 43, 100, 101, 2500])(
    "results %i: valid values are answered, invalid ones refused naming exactly the parameters at fault",
    (results) => {
      assertEveryValue(pageParams({ results }), ({ value, meta }) => {
        const expected = expectPage(value, results);
        const fields = mutationsOf(meta).map((mutation) => mutation.field);
        if (meta.mode === "positive")
          return expected.status === "page" ? undefined : JSON.stringify(expected);
        if (expected.status !== "refused") return `negative but ${expected.status}`;
        return JSON.stringify(expected.fields) === JSON.stringify(fields)
          ? undefined
          : `${expected.fields} vs ${fields}`;
      });
    },
  );

  it("reaches every edge", () => {
    const pages = [
      "page-omitted",
      "page-first",
      "page-last",
      "page-last-plus-one",
      "page-at-limit",
      "page-above-limit",
      "page-far-above-limit",
      "page-zero",
      "page-negative",
      "page-non-integer",
      "page-empty",
      "page-word",
    ];
    const sizes = [
      "page-size-omitted",
      "page-size-min",
      "page-size-default",
      "page-size-max",
      "page-size-power-of-two",
      "page-size-below-min",
      "page-size-above-max",
      "page-size-zero",
      "page-size-non-integer",
      "page-size-empty",
    ];
    const arbitrary = pageParams({ results: 43 });
    assertCovers(arbitrary, pages, 1000, ({ meta }) => meta.scenario.split("+")[0]!);
    assertCovers(arbitrary, sizes, 1000, ({ meta }) => meta.scenario.split("+")[1]!);
  });

  it("the 2^64 edges are exact: at the bound the page is echoed, one above it the last page answers", () => {
    assertEveryValue(pageParams({ results: 43, validOnly: true }), ({ value, meta }) => {
      const expected = expectPage(value, 43);
      if (expected.status !== "page") return "not a page";
      const [page] = meta.scenario.split("+");
      if (page === "page-at-limit" && expected.clamped) return "the bound itself is not above it";
      if ((page === "page-above-limit" || page === "page-far-above-limit") && !expected.clamped)
        return "not clamped";
      return undefined;
    });
  });

  it("validOnly and invalidOnly", () => {
    assertEveryValue(pageParams({ results: 5, validOnly: true }), ({ meta }) =>
      meta.mode === "positive" ? undefined : meta.scenario,
    );
    assertEveryValue(pageParams({ results: 5, invalidOnly: true }), ({ meta }) =>
      meta.mode === "negative" ? undefined : meta.scenario,
    );
  });
});
