import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mutationsOf } from "../../src/generators/case-meta.ts";
import { pageParams } from "../../src/generators/page-params.ts";
import { expectPage } from "../../src/oracles/pagination-oracle.ts";
import type { PageSizeBounds } from "../../src/spec/conventions.ts";
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

  const otherBounds: [string, PageSizeBounds, Record<string, string>][] = [
    [
      "10..50, default 20",
      { min: 10, max: 50, default: 20 },
      {
        "page-size-min": "10",
        "page-size-below-min": "9",
        "page-size-above-max": "51",
        "page-size-power-of-two": "16",
      },
    ],
    [
      "1..1000, default 500",
      { min: 1, max: 1000, default: 500 },
      {
        "page-size-min": "1",
        "page-size-below-min": "0",
        "page-size-above-max": "1001",
        "page-size-default": "500",
      },
    ],
    [
      "the described ones",
      { min: 25, max: 500, default: 100 },
      {
        "page-size-min": "25",
        "page-size-below-min": "24",
        "page-size-above-max": "501",
        "page-size-power-of-two": "32",
      },
    ],
  ];
  it.each(otherBounds)(
    "bounds %s: the edges move with them and agree with the oracle",
    (_name, bounds, edges) => {
      for (const results of [0, 7, 130]) {
        assertEveryValue(pageParams({ results, bounds }), ({ value, meta }) => {
          const expected = expectPage(value, results, bounds);
          const fields = mutationsOf(meta).map((mutation) => mutation.field);
          if (meta.mode === "positive")
            return expected.status === "page" ? undefined : JSON.stringify(expected);
          if (expected.status !== "refused")
            return `negative but ${expected.status}: ${JSON.stringify(value)}`;
          return JSON.stringify(expected.fields) === JSON.stringify(fields)
            ? undefined
            : `${expected.fields} vs ${fields}`;
        });
      }
      assertCovers(
        pageParams({ results: 7, bounds }),
        Object.keys(edges),
        1000,
        ({ meta }) => meta.scenario.split("+")[1]!,
      );
      assertEveryValue(pageParams({ results: 7, bounds }), ({ value, meta }) => {
        const scenario = meta.scenario.split("+")[1]!;
        const text = edges[scenario];
        return text === undefined || value.page_size === text
          ? undefined
          : `${scenario}: ${value.page_size} not ${text}`;
      });
    },
  );

  it("bounds the oracle disagrees with are caught: values made for 10..50 are not all right under 25..500", () => {
    const bounds = { min: 10, max: 50, default: 20 };
    const disagreements = fc
      .sample(pageParams({ results: 7, bounds }), { seed: 1, numRuns: 300 })
      .filter(({ value, meta }) => (meta.mode === "positive") !== (expectPage(value, 7).status === "page"));
    expect(disagreements.length).toBeGreaterThan(0);
  });
});
