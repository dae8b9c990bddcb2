import { describe, expect, it } from "vitest";
import {
  type BodySchema,
  readBackDifferences,
  readWritten,
  redactWriteOnly,
  writeOnlyValues,
  writeTargets,
  writtenDifferences,
} from "../../../src/index.ts";
import { fakeCase, specWith } from "../../helpers/fake-case.ts";
import { inLocalTimeZone } from "../../helpers/local-time-zone.ts";

const schema = (properties: Record<string, Partial<BodySchema>>): BodySchema =>
  ({ pointer: "", types: ["object"], properties }) as BodySchema;

const request = schema({
  label: { types: ["string"] },
  root_pass: { types: ["string"], writeOnly: true },
  tags: { types: ["array"], items: { pointer: "", types: ["string"] } },
  expiry: { types: ["string"], format: "date-time" },
  booted: { types: ["boolean"] },
  rdns: { types: ["string", "null"] },
  check: schema({ path: { types: ["string"] } }),
});
const response = schema({
  label: { types: ["string"] },
  root_pass: { types: ["string"] },
  tags: { types: ["array"], items: { pointer: "", types: ["string"] } },
  expiry: { types: ["string"], format: "date-time" },
  rdns: { types: ["string"] },
  check: schema({ path: { types: ["string"] } }),
});

describe("readBackDifferences", () => {
  // A machine whose local time is not UTC: a time without designator must still read as UTC.
  inLocalTimeZone();
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
    ["equal", { label: "a" }, { label: "a", id: 1 }, []],
    ["changed", { label: "a" }, { label: "b" }, ["label"]],
    ["missing", { label: "a" }, {}, ["label"]],
    ["write-only: never shown again", { root_pass: "s3cret" }, {}, []],
    ["null: asks for the default", { rdns: null }, { rdns: "x.example" }, []],
    ["not declared by the read: an instruction", { booted: true }, {}, []],
    ["plain lists compare as sets", { tags: ["a", "b", "a"] }, { tags: ["b", "a"] }, []],
    ["a set with another member", { tags: ["a", "b"] }, { tags: ["a", "c"] }, ["tags"]],
    [
      "date-times compare as instants",
      { expiry: "2030-01-01T00:00:00Z" },
      { expiry: "2030-01-01T00:00:00+00:00" },
      [],
    ],
    ["another instant", { expiry: "2030-01-01T00:00:00Z" }, { expiry: "2030-01-01T00:00:01Z" }, ["expiry"]],
    // The API writes times without designator, in UTC (Date.parse would read them as local time).
    ["no designator is UTC", { expiry: "2030-01-01T05:00:00Z" }, { expiry: "2030-01-01T05:00:00" }, []],
    ["+00:00 is UTC too", { expiry: "2030-01-01T05:00:00+00:00" }, { expiry: "2030-01-01T05:00:00" }, []],
    ["an offset is honoured", { expiry: "2030-01-01T05:00:00+02:00" }, { expiry: "2030-01-01T03:00:00" }, []],
    [
      "a local time is not UTC",
      { expiry: "2030-01-01T05:00:00Z" },
      { expiry: "2030-01-01T00:00:00" },
      ["expiry"],
    ],
    ["not a time at all", { expiry: "tomorrow" }, { expiry: "tomorrow" }, ["expiry"]],
    ["nested objects by field", { check: { path: "/a" } }, { check: { path: "/b" } }, ["check.path"]],
  ])("%s", (_name, sent, read, fields) => {
    const differences = readBackDifferences(sent, read, request, response);
    expect(differences.map((difference) => difference.field)).toEqual(fields);
  });
});

describe("redactWriteOnly and writeOnlyValues", () => {
  it("redact write-only values except those broken on purpose", () => {
    const body = { label: "a", root_pass: "s3cret" };
    expect(redactWriteOnly(request, body)).toEqual({ label: "a", root_pass: "<REDACTED>" });
    expect(redactWriteOnly(request, body, ["/root_pass"])).toEqual(body);
    expect(redactWriteOnly(request, [1])).toEqual([1]);
    expect(writeOnlyValues(request, body)).toEqual(["s3cret"]);
    expect(writeOnlyValues(request, { root_pass: 12 })).toEqual([]);
  });
});

describe("readWritten and writtenDifferences", () => {
  const values = { nodeBalancerId: 1, configId: 2 };

  async function rebuild(nodes: Record<string, unknown>[]) {
    const fake = fakeCase(await specWith(), ({ path }) =>
      path.endsWith("/nodes")
        ? { status: 200, json: { data: nodes, page: 1, pages: 1, results: nodes.length } }
        : { status: 200, json: { id: 2, port: 80, protocol: "http" } },
    );
    const target = writeTargets(fake.t, values, () => ({})).find(
      (entry) => entry.operation.operationId === "rebuildNodeBalancerConfig",
    )!;
    const where = {
      resourcePath: undefined,
      read: { kind: "get" as const, path: "/nodebalancers/1/configs/2", operation: target.operation },
      lists: { nodes: "/nodebalancers/1/configs/2/nodes" },
    };
    const read = await readWritten(fake.t, where.read);
    const body = { port: 80, nodes: [{ label: "n1", address: "192.168.0.1:80" }] };
    return { fake, differences: await writtenDifferences(fake.t, target, body, where, read!) };
  }

  it("a rebuild's nodes read back item by item, matched by label", async () => {
    const { fake, differences } = await rebuild([{ id: 5, label: "n1", address: "192.168.0.1:80" }]);
    expect(differences).toEqual([]);
    expect(fake.sent.map((sent) => sent.path)).toEqual([
      "/nodebalancers/1/configs/2",
      "/nodebalancers/1/configs/2/nodes",
    ]);
  });

  it.each([
    ["another address", [{ id: 5, label: "n1", address: "192.168.0.9:80" }], ["nodes[0].address"]],
    ["another label", [{ id: 5, label: "n9", address: "192.168.0.1:80" }], ["nodes[0]"]],
    ["one node too many", [{ label: "n1" }, { label: "n2" }], ["nodes.length"]],
  ])("a rebuild's nodes with %s differ", async (_name, nodes, fields) => {
    const { differences } = await rebuild(nodes);
    expect(differences.map((difference) => difference.field)).toEqual(fields);
  });

  it("reads a resource with no read of its own from its list", async () => {
    const fake = fakeCase(await specWith(), () => ({ status: 200, json: { data: [{ id: 3 }], pages: 1 } }));
    const operation = fake.t.spec.operations.byId("getPersonalAccessTokens")!;
    const read = await readWritten(fake.t, { kind: "list", path: "/profile/tokens", operation, id: 3 });
    expect(read?.json).toEqual({ id: 3 });
  });
});
