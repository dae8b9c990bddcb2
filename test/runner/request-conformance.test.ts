import { describe, expect, it } from "vitest";
import {
  type RequestToCheck,
  requestConformance,
  valueProblem,
} from "../../src/runner/request-conformance.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
const target = {
  baseUrl: "https://127.0.0.1:8443/v4",
  authUrl: "https://127.0.0.2:9443/auth",
  embedded: false,
  writesAllowed: false,
};
const api = (path: string) => `https://127.0.0.1:8443/v4${path}`;
const auth = (path: string) => `https://127.0.0.2:9443/auth${path}`;
const json = (value: unknown) => ({ kind: "json", value }) as const;
const raw = (text: string) => ({ kind: "raw", text }) as const;
const form = (fields: Record<string, string>) => ({ kind: "form", fields }) as const;

type Row = [string, RequestToCheck, { rule: string; field: string } | undefined];
const request = (
  method: string,
  url: string,
  payload?: RequestToCheck["payload"],
  contentType = payload === undefined ? undefined : "application/json",
): RequestToCheck => ({ method, url, payload, contentType });

describe("requestConformance", () => {
  const check = requestConformance(spec, target);

  it.each<Row>([
    // Valid: nothing to say.
    ["a list read", request("GET", api("/nodebalancers")), undefined],
    ["a list read at the size bounds", request("GET", api("/nodebalancers?page=2&page_size=500")), undefined],
    [
      "a create with a valid body",
      request("POST", api("/nodebalancers"), json({ region: "us-east" })),
      undefined,
    ],
    [
      "a valid body with a charset",
      request("POST", api("/nodebalancers"), json({ region: "us-east" }), "application/json; charset=utf-8"),
      undefined,
    ],
    [
      "a raw JSON body that parses and fits",
      request("POST", api("/nodebalancers"), raw('{"region":"x"}')),
      undefined,
    ],
    ["an action without a body", request("POST", api("/compute/instances/12/boot")), undefined],
    [
      "a form post to the login server",
      request(
        "POST",
        auth("/oauth/token"),
        form({ client_id: "a", client_secret: "b", code: "c" }),
        "application/x-www-form-urlencoded",
      ),
      undefined,
    ],
    ["an unknown path: not checked", request("POST", api("/nowhere"), json([])), undefined],
    ["a method the path lacks: not checked", request("PATCH", api("/nodebalancers"), json([])), undefined],
    [
      "another origin: not checked",
      request("POST", "http://127.0.0.9/v4/nodebalancers", json([])),
      undefined,
    ],
    // Invalid: the rule and the field.
    [
      "a JSON array for an object",
      request("POST", api("/nodebalancers"), json([])),
      { rule: "body-schema", field: "" },
    ],
    [
      "a missing required property",
      request("POST", api("/nodebalancers"), json({ label: "conform-x" })),
      { rule: "body-schema", field: "region" },
    ],
    [
      "a value beyond its maximum",
      request("POST", api("/nodebalancers"), json({ region: "us-east", client_conn_throttle: 21 })),
      { rule: "body-schema", field: "client_conn_throttle" },
    ],
    [
      "malformed JSON",
      request("POST", api("/nodebalancers"), raw('{"region": "x"')),
      { rule: "body-not-json", field: "" },
    ],
    [
      "a media type the operation does not take",
      request("POST", api("/nodebalancers"), raw('{"region":"x"}'), "text/plain"),
      { rule: "media-type", field: "content-type" },
    ],
    [
      "a body to an action that declares none (the boot action)",
      request("POST", api("/compute/instances/12/boot"), json({})),
      { rule: "body-not-declared", field: "" },
    ],
    [
      "no body where one is required",
      request("POST", api("/nodebalancers")),
      { rule: "body-required", field: "" },
    ],
    [
      "page_size below its minimum",
      request("GET", api("/nodebalancers?page_size=24")),
      { rule: "parameter-schema", field: "query.page_size" },
    ],
    [
      "page_size above its maximum",
      request("GET", api("/nodebalancers?page_size=501")),
      { rule: "parameter-schema", field: "query.page_size" },
    ],
    [
      "a page that is not an integer",
      request("GET", api("/nodebalancers?page=1.5")),
      { rule: "parameter-schema", field: "query.page" },
    ],
    [
      "a path id below its minimum",
      request("GET", api("/nodebalancers/0")),
      { rule: "parameter-schema", field: "path.nodeBalancerId" },
    ],
    [
      "a required query parameter missing",
      request("GET", auth("/oauth/authorize?scopes=*")),
      { rule: "parameter-required", field: "query.client_id" },
    ],
    [
      "a query value outside its enum",
      request("GET", auth("/oauth/authorize?client_id=a&response_type=implicit")),
      { rule: "parameter-schema", field: "query.response_type" },
    ],
    [
      "a form missing a required field",
      request("POST", auth("/oauth/token"), form({ client_id: "a" }), "application/x-www-form-urlencoded"),
      { rule: "body-schema", field: "client_secret" },
    ],
  ])("%s", (_name, sent, expected) => {
    const breach = check(sent);
    if (expected === undefined) expect(breach).toBeUndefined();
    else expect(breach).toMatchObject(expected);
  });

  it("names the operation and says why", () => {
    expect(check(request("POST", api("/nodebalancers"), json({ label: "conform-x" })))).toEqual({
      operationId: "createNodeBalancer",
      rule: "body-schema",
      field: "region",
      message: "must have required property 'region' (required)",
    });
  });

  it("judges a request without a body once per method and URL, the same each time", () => {
    const read = request("GET", api("/nodebalancers?page_size=24"));
    expect(check(read)).toBe(check(read));
  });
});

describe("valueProblem", () => {
  it.each<[string, Record<string, unknown>, string, boolean]>([
    ["an integer", { type: "integer", minimum: 1 }, "12", true],
    ["not an integer", { type: "integer" }, "1.5", false],
    ["below the minimum", { type: "integer", minimum: 25 }, "24", false],
    ["above the maximum", { type: "integer", maximum: 500 }, "501", false],
    ["a number", { type: "number" }, "1.5e3", true],
    ["a boolean", { type: "boolean" }, "true", true],
    ["not a boolean", { type: "boolean" }, "yes", false],
    ["in the enum", { type: "string", enum: ["code", "token"] }, "code", true],
    ["outside the enum", { type: "string", enum: ["code", "token"] }, "implicit", false],
    ["long enough", { type: "string", minLength: 1 }, "a", true],
    ["too short", { type: "string", minLength: 1 }, "", false],
    ["too long", { type: "string", maxLength: 2 }, "abc", false],
    ["an unconstrained string", { type: "string" }, "anything", true],
  ])("%s", (_name, schema, value, fine) => {
    expect(valueProblem(schema, value) === undefined).toBe(fine);
  });
});
