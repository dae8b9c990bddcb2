import { describe, expect, it } from "vitest";
import type { OperationCoverage } from "../../src/core/events.ts";
import {
  type ConsoleSummaryInput,
  coverageRowText,
  coverageTailLines,
  summaryLines,
} from "../../src/reporters/_internals/console-summary.ts";

const plain = (_style: unknown, text: string) => text;

const row = (fields: Partial<OperationCoverage>): OperationCoverage => ({
  operationId: "getRegions",
  method: "GET",
  path: "/regions",
  statuses: [200],
  requests: 3,
  valid: { sent: 2, accepted: 2 },
  invalid: { sent: 1, refused: 1 },
  chained: false,
  suites: ["lists", "operations"],
  checks: ["body-matches-schema", "status-code-documented"],
  ...fields,
});

const never = row({
  operationId: "createToken",
  method: "POST",
  path: "/oauth/token",
  statuses: [],
  requests: 0,
  notRequested: { reason: "other-server", detail: "its own server {auth_url} is not the API's" },
  valid: { sent: 0, accepted: 0 },
  invalid: { sent: 0, refused: 0 },
  suites: [],
  checks: [],
});

const base: ConsoleSummaryInput = {
  status: "passed",
  ended: true,
  counts: { passed: 2, failed: 0, skipped: 0, errored: 0, interrupted: 0 },
  exchanges: 3,
  rateLimited: 0,
  retries: 0,
  latency: { count: 0, p50Ms: null, p90Ms: null, p99Ms: null, maxMs: null, buckets: [] } as never,
  durationMs: 1250,
  runId: "run-1",
  labelPrefixes: ["conform-abc"],
  groups: [],
  baseline: undefined,
  interrupted: [],
  unfinished: [],
  cleanupFailed: [],
  warnings: [],
  coverage: { total: 2, operations: [row({}), never] },
  failUnder: undefined,
  maxCoverageRows: 100,
};

describe("the console's closing lines", () => {
  it.each<[string, Partial<ConsoleSummaryInput>, string[]]>([
    [
      "a passing run: table, verdict, run, coverage line last",
      {},
      [
        "",
        "Coverage by operation:",
        "  ✓ GET /regions       getRegions  valid 2/2 2xx · invalid 1/1 refused · suites lists, operations · 2 checks",
        "  - POST /oauth/token  createToken  not requested: another server's: its own server {auth_url} is not the API's",
        "",
        "✓ PASSED  2 passed (2 cases) · 3 exchanges · 1/2 operations · 1.25 s",
        "run run-1 · labels conform-abc-*",
        "1 of 2 operations exercised; 1 never requested (1 another server's)",
      ],
    ],
    [
      "--fail-under falling short: its line after the coverage line",
      {
        coverage: { total: 2, operations: [row({}), never] },
        maxCoverageRows: 0,
        failUnder: {
          threshold: 80,
          percent: 50,
          message: "coverage 50% of operations exercised is under --fail-under 80% (1 of 2)",
        },
      },
      [
        "",
        "Coverage by operation:",
        "  … and 2 more operations: every row is in the HTML and JSON reports",
        "",
        "✓ PASSED  2 passed (2 cases) · 3 exchanges · 1/2 operations · 1.25 s",
        "run run-1 · labels conform-abc-*",
        "1 of 2 operations exercised; 1 never requested (1 another server's)",
        "✗ coverage 50% of operations exercised is under --fail-under 80% (1 of 2)",
      ],
    ],
    [
      "a run that stopped: only what it requested is known, the rest never requested",
      {
        status: "interrupted",
        ended: false,
        durationMs: undefined,
        coverage: { total: 5, operations: [row({ method: "", path: "" })] },
        unfinished: [{ suiteId: "lists", title: "pages" }],
        warnings: ["2 cases left out"],
      },
      [
        "",
        "■ unfinished: lists › pages",
        "",
        "Warnings (1): the evidence is thinner than the verdict says",
        "  ⚠ 2 cases left out",
        "",
        "Coverage by operation (the operations requested before the run stopped):",
        "  ✓ getRegions  valid 2/2 2xx · invalid 1/1 refused · suites lists, operations · 2 checks",
        "",
        "■ STOPPED before the run finished  2 passed (2 cases) · 3 exchanges · 1/5 operations · 1 warning",
        "run run-1 · labels conform-abc-*",
        "1 of 5 operations exercised; 4 never requested",
      ],
    ],
    [
      "traffic (proxy, verify): the operations it never reached are one line, not a row each",
      {
        coverage: {
          total: 4,
          operations: [
            row({}),
            ...["getRegion", "getProfile"].map((operationId) =>
              row({
                ...never,
                operationId,
                notRequested: { reason: "not-reached", detail: "no exchange of the judged traffic hit it" },
              }),
            ),
            never,
          ],
        },
      },
      [
        "",
        "Coverage by operation:",
        "  ✓ GET /regions       getRegions  valid 2/2 2xx · invalid 1/1 refused · suites lists, operations · 2 checks",
        "  - POST /oauth/token  createToken  not requested: another server's: its own server {auth_url} is not the API's",
        "  - 2 operations the traffic never reached: every row is in the HTML and JSON reports",
        "",
        "✓ PASSED  2 passed (2 cases) · 3 exchanges · 1/4 operations · 1.25 s",
        "run run-1 · labels conform-abc-*",
        "1 of 4 operations exercised; 3 never requested (2 not reached, 1 another server's)",
      ],
    ],
    [
      "one exchange is one, not 1 exchanges",
      { exchanges: 1, maxCoverageRows: 0 },
      [
        "",
        "Coverage by operation:",
        "  … and 2 more operations: every row is in the HTML and JSON reports",
        "",
        "✓ PASSED  2 passed (2 cases) · 1 exchange · 1/2 operations · 1.25 s",
        "run run-1 · labels conform-abc-*",
        "1 of 2 operations exercised; 1 never requested (1 another server's)",
      ],
    ],
  ])("%s", (_name, input, lines) => {
    const closing = { ...base, ...input };
    expect([...summaryLines(closing, plain), ...coverageTailLines(closing, plain)]).toEqual(lines);
  });

  it.each([
    [
      row({ chained: true, invalid: { sent: 0, refused: 0 } }),
      "valid 2/2 2xx · chained · suites lists, operations · 2 checks",
    ],
    [
      row({ statuses: [], checks: [] }),
      "valid 2/2 2xx · invalid 1/1 refused · 3 requests, no answer · suites lists, operations · 0 checks",
    ],
    [row({ requests: 0, notRequested: undefined }), "not requested: not reached"],
    [
      row({ requests: 0, notRequested: { reason: "unbuildable", detail: "x".repeat(120) } }),
      `not requested: no request buildable: ${"x".repeat(100)}…`,
    ],
  ])("a row: %#", (one, text) => {
    expect(coverageRowText(one)).toBe(text);
  });
});
