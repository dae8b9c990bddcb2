import { describe, expect, it } from "vitest";
import { operationMatcher } from "../../src/runner/operation-matcher.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
const target = {
  baseUrl: "https://127.0.0.1:8443/v4",
  authUrl: "https://127.0.0.2:9443/auth",
  embedded: false,
  writesAllowed: false,
};

describe("operationMatcher", () => {
  const match = operationMatcher(spec, target);

  it.each<[string, string, string | undefined]>([
    ["GET", "https://127.0.0.1:8443/v4/nodebalancers?page_size=25", "getNodeBalancers"],
    ["POST", "https://127.0.0.1:8443/v4/nodebalancers", "createNodeBalancer"],
    ["GET", "https://127.0.0.1:8443/v4/nodebalancers/12", "getNodeBalancer"],
    ["HEAD", "https://127.0.0.1:8443/v4/nodebalancers/12", "getNodeBalancer"],
    [
      "DELETE",
      "https://127.0.0.1:8443/v4/nodebalancers/12/configs/3/nodes/4",
      "deleteNodeBalancerConfigNode",
    ],
    ["GET", "https://127.0.0.2:9443/auth/oauth/authorize?client_id=x", "getOAuthAuthorize"],
    // An API path under the auth server, or an auth path under the API, is no operation of the description.
    ["GET", "https://127.0.0.2:9443/auth/nodebalancers", undefined],
    ["GET", "https://127.0.0.1:8443/v4/oauth/authorize", undefined],
    ["GET", "https://127.0.0.3:8443/v4/nodebalancers", undefined],
    ["GET", "https://127.0.0.1:8443/v5/nodebalancers", undefined],
    ["PATCH", "https://127.0.0.1:8443/v4/nodebalancers/12", undefined],
  ])("%s %s is %s, the first time and again", (method, url, expected) => {
    expect(match(method, url)).toBe(expected);
    expect(match(method, url)).toBe(expected);
  });

  it("tells methods apart on the same URL", () => {
    const url = "https://127.0.0.1:8443/v4/compute/instances/7";
    expect([match("GET", url), match("PUT", url), match("DELETE", url)]).toEqual([
      "getComputeInstance",
      "updateComputeInstance",
      "deleteComputeInstance",
    ]);
  });
});
