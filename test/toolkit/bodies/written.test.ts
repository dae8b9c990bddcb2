import { describe, expect, it } from "vitest";
import {
  createdResource,
  declaredInRead,
  findInList,
  registerWritten,
  type Written,
  written,
} from "../../../src/index.ts";
import { fakeCase, liveResponse, specWith } from "../../helpers/fake-case.ts";

interface Row {
  readonly operationId: string;
  readonly params: readonly (string | number)[];
  readonly answer: unknown;
  /** The answer's `Location` header, when it has one. */
  readonly location?: string;
  readonly resourcePath: string | undefined;
  /** `get <path>`, `list <path>`, or undefined. */
  readonly read: string | undefined;
  readonly lists?: Record<string, string>;
}

const rows: readonly Row[] = [
  // A create made the child of its collection, read there.
  {
    operationId: "createNodeBalancer",
    params: [],
    answer: { id: 7 },
    resourcePath: "/nodebalancers/7",
    read: "get /nodebalancers/7",
  },
  {
    operationId: "createNodeBalancerConfigNode",
    params: [1, 2],
    answer: { id: 9 },
    resourcePath: "/nodebalancers/1/configs/2/nodes/9",
    read: "get /nodebalancers/1/configs/2/nodes/9",
  },
  // The child's parameter names the answer's property (`{address}`), not `id`.
  {
    operationId: "allocateIP",
    params: [],
    answer: { address: "192.168.1.2" },
    resourcePath: "/networking/ips/192.168.1.2",
    read: "get /networking/ips/192.168.1.2",
  },
  // Deletable but with no read of its own: found in its list.
  {
    operationId: "createPersonalAccessToken",
    params: [],
    answer: { id: 3 },
    resourcePath: "/profile/tokens/3",
    read: "list /profile/tokens",
  },
  // An update reads back at its own path and created nothing.
  {
    operationId: "updateComputeInstance",
    params: [4],
    answer: {},
    resourcePath: undefined,
    read: "get /compute/instances/4",
  },
  // No id in the answer: nowhere to read.
  { operationId: "createNodeBalancer", params: [], answer: {}, resourcePath: undefined, read: undefined },
  // No id in the answer, but a `Location`: its last segment names it.
  {
    operationId: "createNodeBalancer",
    params: [],
    answer: {},
    location: "/v4/nodebalancers/8",
    resourcePath: "/nodebalancers/8",
    read: "get /nodebalancers/8",
  },
  {
    operationId: "createNodeBalancerNodeDeprecated",
    params: [1, 2],
    answer: {},
    location: "https://api.example.net/v4/nodebalancers/1/configs/2/nodes/6",
    resourcePath: "/nodebalancers/1/configs/2/nodes/6",
    read: "get /nodebalancers/1/configs/2/nodes/6",
  },
  // The exceptions, named by operationId.
  {
    operationId: "createNodeBalancerNodeDeprecated",
    params: [1, 2],
    answer: { id: 5 },
    resourcePath: "/nodebalancers/1/configs/2/nodes/5",
    read: "get /nodebalancers/1/configs/2/nodes/5",
  },
  {
    operationId: "rebuildNodeBalancerConfig",
    params: [1, 2],
    answer: { id: 2 },
    resourcePath: undefined,
    read: "get /nodebalancers/1/configs/2",
    lists: { nodes: "/nodebalancers/1/configs/2/nodes" },
  },
];

function shape(where: Written) {
  return {
    resourcePath: where.resourcePath,
    read: where.read && `${where.read.kind} ${where.read.path}`,
    ...(where.lists ? { lists: where.lists } : {}),
  };
}

describe("written", () => {
  it.each(rows)("$operationId $params answering $answer", async (row) => {
    const { t } = fakeCase(await specWith());
    const operation = t.spec.operations.byId(row.operationId)!;
    const where = written(
      t,
      { operation, params: row.params },
      liveResponse({
        status: 200,
        json: row.answer,
        headers: row.location ? { location: row.location } : {},
      }),
    );
    expect(shape(where)).toEqual({
      resourcePath: row.resourcePath,
      read: row.read,
      ...(row.lists ? { lists: row.lists } : {}),
    });
  });

  it.each(rows)("follows renamed paths: $operationId", async (row) => {
    const rename = (path: string | undefined) => path?.replaceAll("/nodebalancers", "/balancers");
    const { t } = fakeCase(await specWith(["/nodebalancers", "/balancers"]));
    const operation = t.spec.operations.byId(row.operationId)!;
    const where = written(
      t,
      { operation, params: row.params },
      liveResponse({
        status: 200,
        json: row.answer,
        headers: row.location ? { location: rename(row.location)! } : {},
      }),
    );
    expect(shape(where)).toEqual({
      resourcePath: rename(row.resourcePath),
      read: rename(row.read),
      ...(row.lists ? { lists: { nodes: rename(row.lists.nodes) } } : {}),
    });
  });
});

describe("createdResource", () => {
  it.each([
    ["createNodeBalancer", "nodeBalancerId"],
    ["createComputeInstance", "computeId"],
    ["allocateIP", "address"],
    ["createOAuthClient", "clientId"],
    ["createPersonalAccessToken", "tokenId"],
    ["rebuildNodeBalancerConfig", undefined],
    ["updateNodeBalancer", undefined],
  ])("%s makes what {%s} names", async (operationId, parameter) => {
    const { t } = fakeCase(await specWith());
    expect(createdResource(t, t.spec.operations.byId(operationId)!)?.parameter).toBe(parameter);
  });
});

describe("registerWritten", () => {
  it("puts a resource on the ledger only where the description can delete it", async () => {
    const { t, cleanups } = fakeCase(await specWith());
    const operation = t.spec.operations.byId("createNodeBalancer")!;
    registerWritten(t, operation, { resourcePath: "/nodebalancers/7", read: undefined });
    registerWritten(t, operation, { resourcePath: "/regions/us-east", read: undefined });
    registerWritten(t, operation, { resourcePath: undefined, read: undefined });
    expect(cleanups).toEqual([
      { description: "createNodeBalancer created /nodebalancers/7", path: "/nodebalancers/7" },
    ]);
  });

  const unnamed = "created something its answer did not name";
  it.each<[string, unknown, { description: string; label: string | undefined }[]]>([
    [
      "createNodeBalancer",
      { label: "conform-ab12cd-lb" },
      [{ description: `createNodeBalancer ${unnamed}`, label: "conform-ab12cd-lb" }],
    ],
    [
      "createNodeBalancer",
      '{"label":"conform-ab12cd-raw"}',
      [{ description: `createNodeBalancer ${unnamed}`, label: "conform-ab12cd-raw" }],
    ],
    [
      "createNodeBalancer",
      { region: "us-east" },
      [{ description: `createNodeBalancer ${unnamed}`, label: undefined }],
    ],
    ["createNodeBalancer", "not json", [{ description: `createNodeBalancer ${unnamed}`, label: undefined }]],
    [
      "createNodeBalancerNodeDeprecated",
      { label: "conform-ab12cd-node" },
      [{ description: `createNodeBalancerNodeDeprecated ${unnamed}`, label: "conform-ab12cd-node" }],
    ],
    // Not creates: an update and a rebuild make nothing of their own.
    ["updateNodeBalancer", { label: "conform-ab12cd-lb" }, []],
    ["rebuildNodeBalancerConfig", { port: 80 }, []],
  ])(
    "a 2xx of %s naming nothing, sent %j, goes on the ledger as unidentified by its label",
    async (operationId, sent, unidentified) => {
      const fake = fakeCase(await specWith());
      const operation = fake.t.spec.operations.byId(operationId)!;
      const params = { createNodeBalancer: [], updateNodeBalancer: [1] }[operationId] ?? [1, 2];
      const where = written(fake.t, { operation, params }, liveResponse({ status: 200, json: {} }));
      registerWritten(fake.t, operation, where, sent);
      expect(fake.unidentified).toEqual(unidentified);
      expect(fake.cleanups).toEqual([]);
    },
  );
});

describe("findInList", () => {
  const pages = [
    { data: [{ id: 1 }, { id: 2 }], pages: 2 },
    { data: [{ id: 3 }], pages: 2 },
  ];
  const answer = ({ options }: { options: { query?: Record<string, unknown> } }) => ({
    status: 200,
    json: pages[Number(options.query?.page) - 1],
  });

  it.each([
    [3, { id: 3 }, 2],
    [4, undefined, 2],
    [1, { id: 1 }, 1],
  ])("item %s is %j after %s page(s) of the largest size", async (id, item, requests) => {
    const fake = fakeCase(await specWith(), answer);
    const found = await findInList(fake.t, "/profile/tokens", id);
    expect(found?.json).toEqual(item);
    expect(fake.sent).toHaveLength(requests);
    expect(fake.sent[0]?.options.query).toEqual({ page: 1, page_size: 500 });
  });

  it("answers a list's refusal as it is", async () => {
    const fake = fakeCase(await specWith(), () => ({ status: 403, json: { errors: [] } }));
    expect((await findInList(fake.t, "/profile/tokens", 1))?.status).toBe(403);
  });
});

describe("declaredInRead", () => {
  it("is the read's answer schema, or a list's item schema", async () => {
    const { t } = fakeCase(await specWith());
    const one = declaredInRead(t, t.spec.operations.byId("getNodeBalancer")!, false);
    const list = declaredInRead(t, t.spec.operations.byId("getPersonalAccessTokens")!, true);
    expect(one?.properties?.label).toBeDefined();
    expect(list?.properties?.scopes).toBeDefined();
    expect(list?.properties?.data).toBeUndefined();
  });
});
