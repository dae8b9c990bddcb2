import { describe, expect, it } from "vitest";
import { createdTimeUtc } from "../../src/checks/created-time-utc.ts";
import { lastVerdict, runSequenceCases, seen } from "../helpers/observed.ts";

/** A balancer created now (the exchange's timings are Date.now()), its `created` `offsetMs` away, in `form`. */
function created(
  offsetMs: number,
  form = (iso: string) => iso.slice(0, 19),
  headers: Record<string, string> = {},
) {
  const at = new Date(Date.now() + offsetMs).toISOString();
  return seen({
    operationId: "createNodeBalancer",
    method: "POST",
    path: "/nodebalancers",
    json: { id: 1, created: form(at) },
    headers,
  });
}

describe("created-time-utc", () => {
  runSequenceCases(createdTimeUtc, [
    { name: "now, with no designator, passes", sequence: [created(0)], outcome: { status: "passed" } },
    {
      name: "now with Z passes",
      sequence: [created(0, (iso) => `${iso.slice(0, 19)}Z`)],
      outcome: { status: "passed" },
    },
    { name: "a second ago passes", sequence: [created(-1000)], outcome: { status: "passed" } },
    {
      name: "two hours ahead (a UTC+2 profile's wall clock) fails",
      sequence: [created(2 * 3_600_000)],
      outcome: { status: "failed" },
    },
    {
      name: "a non-zero offset is not UTC: fails",
      sequence: [created(0, (iso) => `${iso.slice(0, 19)}+02:00`)],
      outcome: {
        status: "failed",
        message: expect.stringContaining("is not a UTC time in the service's form"),
      },
    },
    {
      name: "judged against the answer's own Date when it has one",
      sequence: [
        created(-3 * 3_600_000, undefined, { date: new Date(Date.now() - 3 * 3_600_000).toUTCString() }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "a recording without Date is skipped",
      sequence: [created(0)],
      recording: {},
      outcome: { status: "skipped" },
    },
    {
      name: "a read is not its business",
      sequence: [
        seen({
          operationId: "getNodeBalancers",
          path: "/nodebalancers",
          json: { data: [], page: 1, pages: 1, results: 0 },
        }),
      ],
      outcome: undefined,
    },
    {
      name: "a POST that is an action, not a list's create, is not its business",
      sequence: [
        seen({
          operationId: "bootComputeInstance",
          method: "POST",
          path: "/compute/instances/1/boot",
          json: { created: "2000-01-01T00:00:00" },
        }),
      ],
      outcome: undefined,
    },
  ]);

  it("says how far off and against what", () => {
    expect(lastVerdict(createdTimeUtc, [created(2 * 3_600_000)])).toMatchObject({
      message: expect.stringMatching(/is 2 h off when it was asked: not the moment of the create in UTC/),
    });
  });
});
