import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/index.ts";
import { ancestorsOf, type Resource, resourcesOf } from "../../src/spec/resources.ts";
import { writeSpec } from "./helpers.ts";

type Ops = Record<string, Record<string, unknown>>;

const idParam = (name: string) => ({ name, in: "path", required: true, schema: { type: "integer" } });
const json = (schema: unknown) => ({ "application/json": { schema } });
const thing = { type: "object", properties: { id: { type: "integer" }, label: { type: "string" } } };
const page = {
  type: "object",
  properties: { data: { type: "array", items: thing }, page: {}, pages: {}, results: {} },
};
const ok = (schema: unknown = thing) => ({ "200": { description: "ok", content: json(schema) } });

/** An OpenAPI 3.0 document with these paths: each method's value is its operationId, or the operation itself. */
function openapi(paths: Record<string, Record<string, string | Record<string, unknown>>>): unknown {
  const written: Record<string, Ops> = {};
  for (const [path, methods] of Object.entries(paths)) {
    const parameters = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => idParam(match[1]!));
    written[path] = { ...(parameters.length > 0 ? { parameters } : {}) } as Ops;
    for (const [method, given] of Object.entries(methods)) {
      const operation =
        typeof given === "string"
          ? { operationId: given, responses: method === "get" && given.startsWith("list") ? ok(page) : ok() }
          : given;
      written[path]![method] = operation;
    }
  }
  return {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    servers: [{ url: "https://x.test/v1" }],
    paths: written,
  };
}

/** A resource as one line: path, offered operations by id, actions, parent, id field. */
function brief(resource: Resource): string {
  const offers = (["list", "create", "read", "update", "delete"] as const)
    .map((name) => (resource[name] ? `${name}=${resource[name].operationId}` : undefined))
    .filter(Boolean);
  return [
    resource.path,
    resource.singleton ? "singleton" : `item ${resource.itemPath ?? "-"}`,
    offers.join(" ") || "-",
    resource.actions.length > 0 ? `actions=${resource.actions.map((op) => op.operationId).join(",")}` : "",
    resource.parent ? `parent=${resource.parent.path} by ${resource.parent.parameter}` : "",
    resource.idField ? `id=${resource.idField.name} (${resource.idField.from})` : "",
  ]
    .filter((part) => part !== "")
    .join(" | ");
}

async function resources(document: unknown, name = "spec.yaml"): Promise<string[]> {
  return resourcesOf(await loadSpec(writeSpec(document, name), { validate: false })).map(brief);
}

const cases: { name: string; document: unknown; expected: string[] }[] = [
  {
    name: "a collection and its item",
    document: openapi({
      "/things": { get: "listThings", post: "createThing" },
      "/things/{thingId}": { get: "getThing", put: "updateThing", delete: "deleteThing" },
    }),
    expected: [
      "/things | item /things/{thingId} | list=listThings create=createThing read=getThing update=updateThing delete=deleteThing | id=id (schema)",
    ],
  },
  {
    name: "nested resources, each linked to its parent by the parent's parameter",
    document: openapi({
      "/lbs": { get: "listLbs", post: "createLb" },
      "/lbs/{lbId}": { get: "getLb", delete: "deleteLb" },
      "/lbs/{lbId}/configs": { get: "listConfigs", post: "createConfig" },
      "/lbs/{lbId}/configs/{configId}": { delete: "deleteConfig" },
      "/lbs/{lbId}/configs/{configId}/nodes": { get: "listNodes", post: "createNode" },
      "/lbs/{lbId}/configs/{configId}/nodes/{nodeId}": { patch: "updateNode", delete: "deleteNode" },
    }),
    expected: [
      "/lbs | item /lbs/{lbId} | list=listLbs create=createLb read=getLb delete=deleteLb | id=id (schema)",
      "/lbs/{lbId}/configs | item /lbs/{lbId}/configs/{configId} | list=listConfigs create=createConfig delete=deleteConfig | parent=/lbs by lbId | id=id (schema)",
      "/lbs/{lbId}/configs/{configId}/nodes | item /lbs/{lbId}/configs/{configId}/nodes/{nodeId} | list=listNodes create=createNode update=updateNode delete=deleteNode | parent=/lbs/{lbId}/configs by configId | id=id (schema)",
    ],
  },
  {
    name: "actions under an item, a POST on the item, and a singleton sub-resource",
    document: openapi({
      "/vms/": { get: "listVms", post: "createVm" },
      "/vms/{vmId}": { get: "getVm", delete: "deleteVm", post: "cloneVm" },
      "/vms/{vmId}/reboot": { post: "rebootVm" },
      "/vms/{vmId}/ips": { get: "getVmIps" },
      "/profile": { get: "getProfile", put: "updateProfile" },
    }),
    expected: [
      "/vms | item /vms/{vmId} | list=listVms create=createVm read=getVm delete=deleteVm | actions=cloneVm,rebootVm | id=id (schema)",
      "/profile | singleton | read=getProfile update=updateProfile",
      "/vms/{vmId}/ips | singleton | read=getVmIps | parent=/vms by vmId",
    ],
  },
  {
    name: "a sub-collection with only a create is a collection, not an action, when it has items",
    document: openapi({
      "/vms": { get: "listVms", post: "createVm" },
      "/vms/{vmId}": { get: "getVm" },
      "/vms/{vmId}/disks": { post: "createDisk" },
      "/vms/{vmId}/disks/{diskId}": { delete: "deleteDisk" },
    }),
    expected: [
      "/vms | item /vms/{vmId} | list=listVms create=createVm read=getVm | id=id (schema)",
      "/vms/{vmId}/disks | item /vms/{vmId}/disks/{diskId} | create=createDisk delete=deleteDisk | parent=/vms by vmId | id=id (schema)",
    ],
  },
  {
    name: "the id field from the create's links, else from its answer's properties by the parameter's name",
    document: openapi({
      "/keys": {
        get: "listKeys",
        post: {
          operationId: "createKey",
          responses: {
            "201": {
              description: "made",
              content: json({
                type: "object",
                properties: { id: { type: "integer" }, fingerprint: { type: "string" } },
              }),
              links: {
                GetKey: { operationId: "getKey", parameters: { keyName: "$response.body#/fingerprint" } },
              },
            },
          },
        },
      },
      "/keys/{keyName}": { get: "getKey", delete: "deleteKey" },
      "/ips": {
        get: "listIps",
        post: {
          operationId: "allocateIp",
          responses: ok({ type: "object", properties: { address: { type: "string" } } }),
        },
      },
      "/ips/{address}": { get: "getIp", delete: "freeIp" },
    }),
    expected: [
      "/keys | item /keys/{keyName} | list=listKeys create=createKey read=getKey delete=deleteKey | id=fingerprint (links)",
      "/ips | item /ips/{address} | list=listIps create=allocateIp read=getIp delete=freeIp | id=address (schema)",
    ],
  },
  {
    name: "the login server's operations are no resource",
    document: {
      ...(openapi({ "/things": { get: "listThings" } }) as object),
      paths: {
        ...(openapi({ "/things": { get: "listThings" } }) as { paths: object }).paths,
        "/oauth/token": {
          post: { operationId: "token", servers: [{ url: "https://login.test" }], responses: ok() },
        },
      },
    },
    expected: ["/things | item - | list=listThings"],
  },
];

describe("resourcesOf", () => {
  it.each(cases)("$name", async ({ document, expected }) => {
    expect(await resources(document)).toEqual(expected);
  });

  it("reads Swagger 2.0 the same way (the answer's schema, no links)", async () => {
    const item = { type: "object", properties: { id: { type: "integer" } } };
    const document = {
      swagger: "2.0",
      info: { title: "t", version: "1" },
      basePath: "/v1",
      paths: {
        "/pets": {
          get: {
            operationId: "listPets",
            responses: { "200": { description: "ok", schema: { type: "array", items: item } } },
          },
          post: { operationId: "createPet", responses: { "201": { description: "ok", schema: item } } },
        },
        "/pets/{petId}": {
          parameters: [{ name: "petId", in: "path", required: true, type: "integer" }],
          get: { operationId: "getPet", responses: { "200": { description: "ok", schema: item } } },
          delete: { operationId: "deletePet", responses: { "204": { description: "gone" } } },
        },
        "/owner": {
          get: { operationId: "getOwner", responses: { "200": { description: "ok", schema: item } } },
        },
      },
    };
    expect(await resources(document, "spec.json")).toEqual([
      "/pets | item /pets/{petId} | list=listPets create=createPet read=getPet delete=deletePet | id=id (schema)",
      "/owner | singleton | read=getOwner",
    ]);
  });

  it("finds the bundled description's six resources with a create and a delete, and their ancestry", async () => {
    const spec = await loadSpec("specs/cloud-api-v4.yaml");
    const all = resourcesOf(spec);
    const deletable = all
      .filter((resource) => resource.create && resource.delete)
      .map((resource) => resource.name);
    expect(deletable).toEqual([
      "nodebalancers",
      "compute/instances",
      "profile/tokens",
      "account/oauth-clients",
      "nodebalancers/configs",
      "nodebalancers/configs/nodes",
    ]);
    const nodes = all.find((resource) => resource.name === "nodebalancers/configs/nodes")!;
    expect(ancestorsOf(all, nodes).map((resource) => resource.name)).toEqual([
      "nodebalancers",
      "nodebalancers/configs",
    ]);
  });
});
