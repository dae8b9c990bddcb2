/**
 * Fixtures found through the description alone: tables of tiny descriptions → which list offers a body field's
 * values (or none), which body fields name another resource, and the skip that says which fixture a case lacked.
 */
import { describe, expect, it } from "vitest";
import { chooseFixture, chooseRegion, fixtureFields, fixtureList } from "../../src/toolkit/fixtures.ts";
import { createAt, idItem, listAt, type TinyPaths, tinyDescription } from "../helpers/descriptions.ts";
import { fakeCase, type SentRequest, Skipped } from "../helpers/fake-case.ts";

type Paths = TinyPaths;
const describe31 = tinyDescription;
const list = listAt;
const create = createAt;

const region = { $ref: "#/components/schemas/Region" };
const remove = {
  operationId: "deleteKey",
  parameters: [{ name: "keyId", in: "path", required: true, schema: { type: "string" } }],
  responses: { "204": { description: "Gone" } },
};
const regionSchema = { Region: { type: "object", properties: { id: { type: "string" } } } };

describe("fixtureList: the list whose items a body field names", () => {
  it.each<[string, Paths, Record<string, unknown>, string, string | undefined, string | undefined]>([
    ["a list named by the field's plural", list("/regions"), {}, "region", undefined, "getRegions"],
    ["a list nested under a literal path", list("/compute/types"), {}, "type", undefined, "getComputeTypes"],
    [
      "a list whose items' schema is named for it",
      list("/zones", region),
      regionSchema,
      "region",
      undefined,
      "getZones",
    ],
    ["a `_id` field and a `-ies` plural", list("/policies"), {}, "policy_id", undefined, "getPolicies"],
    ["a camelCase `Id` field", list("/flavors"), {}, "flavorId", undefined, "getFlavors"],
    ["no list of that name", list("/zones"), {}, "region", undefined, undefined],
    [
      "a list whose items carry no id",
      list("/regions", { type: "object", properties: { name: { type: "string" } } }),
      {},
      "region",
      undefined,
      undefined,
    ],
    [
      "a list under a path parameter",
      list("/accounts/{accountId}/regions"),
      {},
      "region",
      undefined,
      undefined,
    ],
    ["not a read", create("/regions", { name: { type: "string" } }), {}, "region", undefined, undefined],
    [
      "a list the description writes to (the account's own, not a catalogue)",
      { ...list("/owners"), ...create("/owners", { name: { type: "string" } }) },
      {},
      "owner_id",
      undefined,
      undefined,
    ],
    [
      "a list whose items the description deletes",
      { ...list("/keys"), "/keys/{keyId}": { delete: remove } },
      {},
      "key",
      undefined,
      undefined,
    ],
    [
      "the list nearest the operation sending the body",
      {
        ...list("/compute/types"),
        ...list("/volumes/types"),
        ...create("/volumes", { type: { type: "string" } }),
      },
      {},
      "type",
      "postVolumes",
      "getVolumesTypes",
    ],
    [
      "the shortest path among equally near lists",
      {
        ...list("/storage/archive/types"),
        ...list("/compute/types"),
        ...create("/things", { type: { type: "string" } }),
      },
      {},
      "type",
      "postThings",
      "getComputeTypes",
    ],
  ])("%s", async (_what, paths, schemas, field, near, expected) => {
    const spec = await describe31(paths, schemas);
    const operation = near === undefined ? undefined : spec.operations.byId(near);
    expect(fixtureList(spec, field, operation)?.operation.operationId).toBe(expected);
  });

  it("reads what the item schema says: status and a capabilities array", async () => {
    const items = {
      type: "object",
      properties: { id: { type: "string" }, status: { type: "string" }, capabilities: { type: "array" } },
    };
    const spec = await describe31({ ...list("/regions", items), ...list("/sizes") });
    expect(fixtureList(spec, "region")).toMatchObject({ hasStatus: true, hasCapabilities: true });
    expect(fixtureList(spec, "size")).toMatchObject({ hasStatus: false, hasCapabilities: false });
  });
});

describe("fixtureFields: the body fields that name another resource", () => {
  it("are the scalar fields a list offers values for, not listed values or read-only ones", async () => {
    const spec = await describe31({
      ...list("/regions"),
      ...list("/types"),
      ...list("/labels"),
      ...list("/owners"),
      ...create("/things", {
        region: { type: "string" },
        type: { type: "string", enum: ["ipv4"] },
        label: { type: "string", readOnly: true },
        owner_id: { type: "integer" },
        count: { type: "integer" },
      }),
    });
    const fields = fixtureFields(spec, spec.operations.byId("postThings")!);
    expect(
      Object.fromEntries([...fields].map(([field, found]) => [field, found.operation.operationId])),
    ).toEqual({ region: "getRegions", owner_id: "getOwners" });
  });
});

describe("chooseFixture on a description that is not ours", () => {
  const zones = [
    { id: "z-down", status: "outage" },
    { id: "z-up", status: "ok" },
  ];
  const answer = (request: SentRequest) =>
    request.path === "/zones" ? { status: 200, json: { data: zones } } : { status: 404 };

  it("reads the list the description names, without a token when it is public, and skips an outage", async () => {
    const items = { type: "object", properties: { id: { type: "string" }, status: { type: "string" } } };
    const spec = await describe31({
      ...list("/zones", items),
      ...create("/things", { zone: { type: "string" } }),
    });
    const fake = fakeCase(spec, answer);
    expect(await chooseFixture(fake.t, "zone", { for: "postThings" })).toBe("z-up");
    expect(fake.sent).toMatchObject([{ method: "GET", path: "/zones", options: { token: null } }]);
    expect(fake.sent[0]!.options.query).toBeUndefined();
  });

  it("reads a guarded list with the run's token", async () => {
    const spec = await describe31(list("/zones", idItem, true));
    const fake = fakeCase(spec, answer);
    expect(await chooseFixture(fake.t, "zone")).toBe("z-down");
    expect(fake.sent[0]!.options).not.toHaveProperty("token");
  });

  it("takes any item when the item schema lists no capabilities, and says so", async () => {
    const spec = await describe31(list("/regions"));
    const fake = fakeCase(spec, { status: 200, json: { data: [{ id: "r1" }] } });
    expect(await chooseRegion(fake.t, ["balancers"])).toBe("r1");
    expect(fake.logs).toEqual(["getRegions's items list no capabilities: NodeBalancers not checked"]);
  });

  it.each<[string, Paths, string | undefined, string]>([
    [
      "no regions list, naming the operation",
      { ...list("/zones"), ...create("/things", { region: { type: "string" } }) },
      "postThings",
      "no list in the description offers a `region` for POST /things's body",
    ],
    [
      "no regions list, for no operation",
      list("/zones"),
      undefined,
      "no list in the description offers a `region`",
    ],
  ])("skips saying which fixture it lacked: %s, without a request", async (_what, paths, near, reason) => {
    const spec = await describe31(paths);
    const fake = fakeCase(spec, answer);
    await expect(chooseFixture(fake.t, "region", near ? { for: near } : {})).rejects.toThrow(
      new Skipped(reason),
    );
    expect(fake.sent).toEqual([]);
  });

  it("a configured value wins over a missing list", async () => {
    const spec = await describe31(list("/zones"));
    const fake = fakeCase(spec, answer, { options: { fixtures: { region: "mine" } } });
    expect(await chooseFixture(fake.t, "region")).toBe("mine");
  });
});
