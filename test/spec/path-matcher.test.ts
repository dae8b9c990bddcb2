import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/index.ts";
import { createPathMatcher } from "../../src/spec/path-matcher.ts";
import { dialectFixtures } from "./helpers.ts";

const specs = await Promise.all(
  dialectFixtures.map(async ({ dialect, file }) => [dialect, await loadSpec(file)] as const),
);

describe.each(specs)("match() on the %s fixture", (_dialect, spec) => {
  it.each([
    ["get", "/compute/types", "listTypes", {}],
    ["GET", "/compute/types/", "listTypes", {}],
    ["get", "/compute/types/g6-standard-2", "getType", { typeId: "g6-standard-2" }],
    // Templates written with a trailing slash match without one, and the other way round.
    ["get", "/compute/instances", "listInstances", {}],
    ["post", "/compute/instances/", "createInstance", {}],
    // A literal segment beats a templated one.
    ["get", "/compute/instances/summary", "getInstancesSummary", {}],
    ["get", "/compute/instances/42", "getInstance", { computeId: 42 }],
    ["get", "/compute/instances/-3/", "getInstance", { computeId: -3 }],
    ["post", "/compute/instances/7/boot", "post /compute/instances/{computeId}/boot", { computeId: 7 }],
    ["get", "/compute/instances/42?page=2", "getInstance", { computeId: 42 }],
    // Parameters are percent-decoded; an encoded slash stays inside its segment.
    ["get", "/compute/types/g6%20standard%2F2", "getType", { typeId: "g6 standard/2" }],
    ["post", "/oauth/token", "createToken", {}],
  ])("%s %s → %s", (method, path, operationId, pathParams) => {
    const found = spec.operations.match(method, path);
    expect(found?.operation.operationId).toBe(operationId);
    expect(found?.pathParams).toEqual(pathParams);
  });

  it.each([
    ["an integer parameter that is not an integer", "get", "/compute/instances/abc"],
    ["an integer parameter with a fraction", "get", "/compute/instances/4.5"],
    ["an unknown path", "get", "/volumes"],
    ["a known path with one segment too many", "get", "/compute/types/a/b"],
    ["an empty parameter segment", "get", "/compute/instances//boot"],
    ["a method the path does not have", "delete", "/compute/types"],
  ])("does not match %s", (_name, method, path) => {
    expect(spec.operations.match(method, path)).toBeUndefined();
  });
});

describe("createPathMatcher", () => {
  const matcher = createPathMatcher([
    { method: "get", template: "/files/{name}", value: "bare" },
    { method: "get", template: "/files/{name}.json", value: "suffixed" },
    { method: "get", template: "/files/index.json", value: "literal" },
    { method: "get", template: "/{area}/items", value: "area-first" },
    { method: "get", template: "/stores/{storeId}", value: "store" },
    { method: "get", template: "/ranges/{from}-{to}", value: "range" },
    { method: "get", template: "/", value: "root" },
  ]);

  it.each([
    ["/files/index.json", "literal", {}],
    ["/files/report.json", "suffixed", { name: "report" }],
    ["/files/report.txt", "bare", { name: "report.txt" }],
    ["/stores/items", "store", { storeId: "items" }],
    ["/ranges/3-9", "range", { from: "3", to: "9" }],
    ["/", "root", {}],
    ["", "root", {}],
  ])("%s → %s", (path, value, params) => {
    expect(matcher.match("GET", path)).toEqual({ value, params });
  });

  it("at the first segment where templates differ, the literal one wins", () => {
    const tie = createPathMatcher([
      { method: "get", template: "/{a}/literal", value: "templated-first" },
      { method: "get", template: "/literal/{b}", value: "literal-first" },
    ]);
    expect(tie.match("get", "/literal/literal")?.value).toBe("literal-first");
  });

  describe("the path is chosen before the method", () => {
    const ips = createPathMatcher([
      { method: "post", template: "/networking/ips/assign", value: "assignIPs" },
      { method: "get", template: "/networking/ips/{address}", value: "getIP" },
      { method: "put", template: "/networking/ips/{address}", value: "updateIP" },
      { method: "get", template: "/networking/{area}/{name}", value: "areaItem" },
    ]);

    it.each([
      ["POST", "/networking/ips/assign", "assignIPs"],
      // A literal path of its own that lacks the method is that method missing, not another path's template.
      ["PUT", "/networking/ips/assign", undefined],
      ["GET", "/networking/ips/assign", undefined],
      ["PUT", "/networking/ips/192.0.2.1", "updateIP"],
      ["GET", "/networking/ips/192.0.2.1", "getIP"],
      // Less specific than /networking/ips/{address} for GET, and the more specific path has GET.
      ["GET", "/networking/vlans/x", "areaItem"],
      ["DELETE", "/networking/ips/192.0.2.1", undefined],
    ])("%s %s → %s", (method, path, value) => {
      expect(ips.match(method, path)?.value).toBe(value);
    });
  });

  it("a parameter its route's converter refuses falls through to the next candidate", () => {
    const typed = createPathMatcher([
      {
        method: "get",
        template: "/n/{id}",
        value: "number",
        convert: (_name, text) => (/^\d+$/.test(text) ? Number(text) : undefined),
      },
      { method: "get", template: "/{any}/{rest}", value: "anything" },
    ]);
    expect(typed.match("get", "/n/12")).toEqual({ value: "number", params: { id: 12 } });
    expect(typed.match("get", "/n/x")).toEqual({ value: "anything", params: { any: "n", rest: "x" } });
  });
});
