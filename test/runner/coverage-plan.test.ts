import { describe, expect, it } from "vitest";
import { genericLeftOutOf, planCoverage, writesWithheld } from "../../src/runner/coverage-plan.ts";
import { everyOperation, selectOperations } from "../../src/runner/operation-selection.ts";
import { loadSpec } from "../../src/spec/index.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { fixture, minimalDocument, writeSpec } from "../spec/helpers.ts";

const mini = await loadSpec(fixture("mini-cloud-3.0.yaml"));

/** A description with a write naming no resource and taking no body, and one whose body is not JSON. */
const writes = await loadSpec(
  writeSpec({
    ...minimalDocument(),
    paths: {
      ...(minimalDocument().paths as object),
      "/things/reboot-all": {
        post: { operationId: "rebootAll", responses: { "204": { description: "Done." } } },
      },
      "/things/upload": {
        post: {
          operationId: "uploadThing",
          requestBody: { required: true, content: { "text/plain": { schema: { type: "string" } } } },
          responses: { "204": { description: "Done." } },
        },
      },
    },
  }),
);

/** The plan of every operation of `spec`, the generic layer running. */
const planEvery = (spec: ApiSpec, writesAllowed: boolean) =>
  planCoverage({ spec, operations: everyOperation, genericLeftOut: undefined, writesAllowed });

const reasonsOf = (plan: ReturnType<typeof planCoverage>) =>
  Object.fromEntries(plan.map((row) => [row.operationId, row.notRequested?.reason ?? "requested"]));

describe("the coverage plan", () => {
  it.each([
    [
      "sets another server's operation aside and plans the rest",
      { genericLeftOut: undefined, writesAllowed: true, exclude: [] },
      { listTypes: "requested", createInstance: "requested", createToken: "other-server" },
    ],
    [
      "says which operations the selection leaves out",
      { genericLeftOut: undefined, writesAllowed: true, exclude: ["listTypes"] },
      { listTypes: "deselected", getType: "requested", createToken: "other-server" },
    ],
    [
      "says the generic layer is not selected (after the servers and the selection)",
      { genericLeftOut: "no suite tagged `generic`", writesAllowed: true, exclude: ["listTypes"] },
      { listTypes: "deselected", getType: "suite-not-selected", createToken: "other-server" },
    ],
    [
      "keeps writes with a body or a path parameter without --allow-writes (they are probed harmlessly)",
      { genericLeftOut: undefined, writesAllowed: false, exclude: [] },
      { createInstance: "requested", createNodeBalancer: "requested" },
    ],
  ])("%s", (_name, options, expected) => {
    const plan = planCoverage({
      spec: mini,
      operations: selectOperations(mini, {
        operations: [],
        excludeOperations: options.exclude,
        methods: [],
        paths: [],
      }),
      genericLeftOut: options.genericLeftOut,
      writesAllowed: options.writesAllowed,
    });
    expect(reasonsOf(plan)).toMatchObject(expected);
    expect(plan).toHaveLength(mini.operations.all().length);
  });

  it.each([
    [true, { getThing: "requested", rebootAll: "requested", uploadThing: "unbuildable" }],
    [false, { getThing: "requested", rebootAll: "writes-not-allowed", uploadThing: "unbuildable" }],
  ])(
    "with writes allowed %s, plans a write naming nothing and taking no body accordingly",
    (allowed, expected) => {
      expect(reasonsOf(planEvery(writes, allowed))).toEqual(expected);
    },
  );

  it.each([
    [false, { createInstance: writesWithheld, createNodeBalancer: writesWithheld }],
    [true, {}],
  ])(
    "with writes allowed %s, says which requested writes get no valid request (a write naming no resource)",
    (allowed, expected) => {
      const withheld = planEvery(mini, allowed).flatMap((row) =>
        row.validWithheld ? [[row.operationId, row.validWithheld]] : [],
      );
      // A read, and a write naming a resource (the boot action: an unknown id, probed harmlessly), get one.
      expect(Object.fromEntries(withheld)).toEqual(expected);
      expect(writesWithheld).toMatch(/^writes need --allow-writes/);
    },
  );

  it("names the operation's own server and the option that left it out", () => {
    const plan = planCoverage({
      spec: mini,
      operations: selectOperations(mini, {
        operations: [],
        excludeOperations: [],
        methods: ["post"],
        paths: [],
      }),
      genericLeftOut: undefined,
      writesAllowed: true,
    });
    const byId = new Map(plan.map((row) => [row.operationId, row]));
    expect(byId.get("createToken")?.notRequested?.detail).toContain("its own server {auth_url}");
    expect(byId.get("listTypes")?.notRequested?.detail).toBe(
      "the selection leaves it out (not one of --method)",
    );
    expect(byId.get("listTypes")).toMatchObject({ method: "GET", path: "/compute/types" });
  });
});

describe("whether the generic layer runs", () => {
  it.each([
    ["selected", [{ tags: ["generic"] }], [], undefined],
    ["not selected", [{ tags: ["read-only"] }], [], "no suite tagged `generic` is selected"],
    ["refused", [], [{ suite: { tags: ["generic"] }, reason: "no writes" }], "was refused: no writes"],
  ])("%s", (_name, suites, refused, expected) => {
    const why = genericLeftOutOf(suites, refused);
    if (expected === undefined) expect(why).toBeUndefined();
    else expect(why).toContain(expected);
  });
});
