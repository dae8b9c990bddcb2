import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/index.ts";
import { operationPlace, pathUnder } from "../../src/spec/servers.ts";
import type { ServerInfo } from "../../src/spec/types.ts";
import { minimalDocument, writeSpec } from "./helpers.ts";

const api: ServerInfo[] = [
  { url: "{base_url}", variables: { base_url: "https://api.example.test/v4" } },
  { url: "https://api.example.test/v4beta", variables: {} },
];

describe("operationPlace: an operation's own server makes it another service's only when it is another place", () => {
  it.each([
    ["no servers of its own", undefined, { kind: "api", pathPrefix: "" }],
    ["the API's URL repeated", "https://api.example.test/v4", { kind: "api", pathPrefix: "" }],
    ["the API's URL with a trailing slash", "https://api.example.test/v4/", { kind: "api", pathPrefix: "" }],
    ["the API's URL in other case", "HTTPS://API.example.test/v4", { kind: "api", pathPrefix: "" }],
    ["the second API server", "https://api.example.test/v4beta", { kind: "api", pathPrefix: "" }],
    ["under the API's URL", "https://api.example.test/v4/beta", { kind: "api", pathPrefix: "/beta" }],
    ["a relative path equal to the API's", "/v4", { kind: "api", pathPrefix: "" }],
    [
      "the login server (another origin)",
      "https://login.example.test",
      { kind: "other", serverUrl: "https://login.example.test" },
    ],
    [
      "the API's origin, another path",
      "https://api.example.test/v5",
      { kind: "other", serverUrl: "https://api.example.test/v5" },
    ],
    [
      "a prefix that is not a whole segment",
      "https://api.example.test/v4x",
      { kind: "other", serverUrl: "https://api.example.test/v4x" },
    ],
    [
      "above the API's URL",
      "https://api.example.test",
      { kind: "other", serverUrl: "https://api.example.test" },
    ],
  ])("%s", (_name, own, place) => {
    const operation = own === undefined ? {} : { servers: [{ url: own }] };
    expect(operationPlace(operation, {}, api)).toEqual(place);
  });

  it("resolves the operation's own variables by their defaults", () => {
    const operation = {
      servers: [{ url: "{auth_url}", variables: { auth_url: { default: "https://localhost" } } }],
    };
    expect(
      operationPlace(operation, {}, [{ url: "{base_url}", variables: { base_url: "https://localhost/v4" } }]),
    ).toEqual({ kind: "other", serverUrl: "{auth_url}" });
  });

  it("takes the path item's servers when the operation has none, the operation's over the path item's", () => {
    const pathItem = { servers: [{ url: "https://login.example.test" }] };
    expect(operationPlace({}, pathItem, api).kind).toBe("other");
    expect(operationPlace({ servers: [{ url: "https://api.example.test/v4" }] }, pathItem, api).kind).toBe(
      "api",
    );
  });

  it("with no document servers, an operation's own server is another place", () => {
    expect(operationPlace({ servers: [{ url: "https://api.example.test/v4" }] }, {}, []).kind).toBe("other");
  });
});

describe("pathUnder", () => {
  it.each([
    ["https://a.test/v4", "https://a.test/v4", ""],
    ["https://a.test/v4/x/y", "https://a.test/v4", "/x/y"],
    ["https://b.test/v4", "https://a.test/v4", undefined],
    ["/v4/x", "https://a.test/v4", "/x"],
    ["https://a.test/v4", "", "/v4"],
  ])("%s under %s → %s", (url, base, prefix) => {
    expect(pathUnder(url, base)).toBe(prefix);
  });
});

describe("loading a description whose operations repeat the API's server", () => {
  it("indexes them as API operations, a longer own path under the API's path prefixed, another origin set aside", async () => {
    const document = minimalDocument();
    document.servers = [{ url: "https://api.example.test/v4" }];
    const get = (operationId: string, servers?: unknown) => ({
      operationId,
      ...(servers === undefined ? {} : { servers }),
      responses: { "200": { description: "ok" } },
    });
    document.paths = {
      "/things": { get: get("listThings", [{ url: "https://api.example.test/v4" }]) },
      "/beta-things": { get: get("listBetaThings", [{ url: "https://api.example.test/v4/beta" }]) },
      "/login": { get: get("showLogin", [{ url: "https://login.example.test" }]) },
    };
    const spec = await loadSpec(writeSpec(document));
    expect(spec.operations.byId("listThings")).toMatchObject({
      serverUrl: undefined,
      pathTemplate: "/things",
    });
    expect(spec.operations.byId("listBetaThings")).toMatchObject({
      serverUrl: undefined,
      pathTemplate: "/beta/beta-things",
    });
    expect(spec.operations.match("GET", "/beta/beta-things")?.operation.operationId).toBe("listBetaThings");
    expect(spec.operations.byId("showLogin")?.serverUrl).toBe("https://login.example.test");
  });
});
