/**
 * `genericCoverage` counts from the answers alone (pure): requested, valid accepted over all operations and over
 * what a read-only run may send valid (writes naming no resource withheld and listed apart), invalid body refused.
 */
import { describe, expect, it } from "vitest";
import { coverageLine, genericCoverage, type IntendedAnswer } from "../../bench/generic-coverage.ts";
import type { RequestIntent } from "../../src/core/exchange.ts";
import { createAt, deleteAt, listAt, tinyDescription } from "../helpers/descriptions.ts";

const things = {
  ...listAt("/things")["/things"]!,
  ...createAt("/things", { name: { type: "string" } }, ["name"])["/things"]!,
};
const spec = await tinyDescription({
  "/things": things,
  ...deleteAt("/things/{thingId}"),
  ...createAt("/things/{thingId}/actions", { kind: { enum: ["reboot"] } }, ["kind"]),
});
const [list, create, remove, act] = [
  "getThings",
  "postThings",
  "deleteThingsThingId",
  "postThingsThingIdActions",
];

const valid = (operationId: string, status: number): IntendedAnswer => ({
  intent: { operationId, mode: "positive", scenario: "request-minimal" },
  status,
});
const invalidBody = (operationId: string, status: number): IntendedAnswer => ({
  intent: {
    operationId,
    mode: "negative",
    scenario: "body-change-type",
    broken: [{ in: "body", at: "", rule: "change-type" }],
  } satisfies RequestIntent,
  status,
});

const rows: readonly {
  name: string;
  answers: IntendedAnswer[];
  expected: Partial<ReturnType<typeof genericCoverage>>;
}[] = [
  {
    name: "a read-only run: the create is withheld, the rest accepted",
    answers: [
      valid(list, 200),
      invalidBody(create, 400),
      valid(remove, 204),
      valid(act, 201),
      invalidBody(act, 422),
    ],
    expected: {
      operations: 4,
      requested: 4,
      validAccepted: 3,
      readOnlyReach: 3,
      readOnlyValidAccepted: 3,
      withBody: 2,
      invalidBodyRefused: 2,
    },
  },
  {
    name: "a run with writes: the create's accepted valid request counts in both",
    answers: [valid(list, 200), valid(create, 201), valid(remove, 404), valid(act, 201)],
    expected: { validAccepted: 3, readOnlyReach: 3, readOnlyValidAccepted: 2, invalidBodyRefused: 0 },
  },
  {
    name: "nothing sent: nothing counted, the create still withheld",
    answers: [],
    expected: { requested: 0, validAccepted: 0, readOnlyReach: 3, readOnlyValidAccepted: 0, requests: 0 },
  },
];

describe("genericCoverage", () => {
  it.each(rows)("$name", ({ answers, expected }) => {
    expect(genericCoverage(spec, answers)).toMatchObject(expected);
  });

  it("lists the withheld writes apart, and says them in its line", () => {
    const coverage = genericCoverage(spec, [valid(list, 200)]);
    expect(coverage.gaps.withheldWithoutWrites).toEqual([create]);
    expect(coverageLine(coverage)).toContain(
      "valid accepted of what a read-only run may send valid 1/3 (33.3 %; 1 withheld: writes need --allow-writes)",
    );
  });
});
