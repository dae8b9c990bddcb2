/** One resource of each kind a description not ours can create and delete, made for the body suites' writes. */
import { describe, expect, it } from "vitest";
import { makeEachResource } from "../../../src/toolkit/bodies/each-resource.ts";
import { createAt, deleteAt, listAt, tinyDescription } from "../../helpers/descriptions.ts";
import { fakeCase, type SentRequest, sentJson } from "../../helpers/fake-case.ts";

const name = { type: "string", minLength: 1, maxLength: 8 };

const spec = await tinyDescription({
  ...listAt("/zones"),
  ...createAt("/things/{thingId}/parts", { label: name }, ["label"]),
  ...deleteAt("/things/{thingId}/parts/{partId}"),
  ...createAt("/things", { zone: { type: "string" }, label: name }, ["zone", "label"]),
  ...deleteAt("/things/{thingId}"),
  ...createAt("/logs", { text: name }, ["text"]),
});

function target(refuseThings = false) {
  return (request: SentRequest) => {
    if (request.path === "/zones") return { status: 200, json: { data: [{ id: "z-1" }] } };
    if (request.path === "/things")
      return refuseThings ? { status: 400, json: {} } : { status: 201, json: { id: 5 } };
    if (request.path === "/things/5/parts") return { status: 201, json: { id: 9 } };
    return { status: 404 };
  };
}

describe("makeEachResource", () => {
  it("makes parents before children with listed values and the run's labels, each on the ledger; never what it could not delete", async () => {
    const fake = fakeCase(spec, target());
    expect(await makeEachResource(fake.t)).toEqual({ thingId: 5, partId: 9 });
    expect(sentJson(fake)).toEqual([
      { method: "GET", path: "/zones", json: undefined },
      { method: "POST", path: "/things", json: { zone: "z-1", label: "conform-test-fixture-1" } },
      { method: "POST", path: "/things/5/parts", json: { label: "conform-test-fixture-2" } },
    ]);
    expect(fake.cleanups.map((cleanup) => cleanup.path)).toEqual(["/things/5", "/things/5/parts/9"]);
  });

  it("a kind the target refuses is logged, and what lives under it is not made", async () => {
    const fake = fakeCase(spec, target(true));
    expect(await makeEachResource(fake.t)).toEqual({});
    expect(fake.logs).toContain("postThings answered 400: nothing made to write against");
    expect(fake.sent.map((request) => request.path)).not.toContain("/things/5/parts");
  });
});
