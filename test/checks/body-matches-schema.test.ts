import { describe, expect, it } from "vitest";
import { bodyMatchesSchema } from "../../src/checks/body-matches-schema.ts";
import type { ValidationIssue, Validator } from "../../src/spec/types.ts";
import {
  context,
  exchange,
  loginRedirectOperation,
  operation,
  responseInfo,
  runCheckCases,
  stubSpec,
  type ValidatorLookup,
} from "../helpers/exchanges.ts";

function issue(instancePath: string, message: string): ValidationIssue {
  return {
    instancePath,
    field: instancePath.slice(1).replaceAll("/", "."),
    keyword: "stub",
    message,
    params: {},
  };
}

/** Stands in for the compiled schema of a page of load balancers: `data` must be an array of `{label: string}`. */
const pageOfBalancers: Validator = (value) => {
  const data = (value as { data?: unknown } | null)?.data;
  if (!Array.isArray(data))
    return { valid: false, issues: [issue("", "must have required property 'data'")] };
  const issues = data.flatMap((item, index) =>
    typeof (item as { label?: unknown })?.label === "string"
      ? []
      : [issue(`/data/${index}/label`, "must be string")],
  );
  return issues.length === 0 ? { valid: true } : { valid: false, issues };
};

/** Schemas for 200 JSON only; nothing for other statuses or media types. */
const lookup: ValidatorLookup = (_operationId, status, contentType) =>
  status === 200 && (contentType === undefined || contentType === "application/json")
    ? pageOfBalancers
    : undefined;
const spec = stubSpec({ validators: lookup });
const withSchemas = context({ spec });
const ranged = context({
  spec: stubSpec({ validators: () => pageOfBalancers }),
  operation: operation({ responses: [responseInfo("2XX")] }),
});

describe("body-matches-schema", () => {
  runCheckCases(bodyMatchesSchema, [
    {
      name: "a body that validates passes",
      context: withSchemas,
      exchange: exchange({ json: { data: [{ label: "balancer1" }], page: 1, pages: 1, results: 1 } }),
      outcome: { status: "passed" },
    },
    {
      name: "a missing property fails at the root",
      context: withSchemas,
      exchange: exchange({ json: { page: 1 } }),
      outcome: {
        status: "failed",
        message:
          "body does not match the schema of getNodeBalancers 200: /: must have required property 'data'",
        expected: "schema of getNodeBalancers 200",
        actual: ["/: must have required property 'data'"],
      },
    },
    {
      name: "many issues: the message names three, actual lists them",
      context: withSchemas,
      exchange: exchange({ json: { data: [{}, {}, {}, {}, { label: 5 }] } }),
      outcome: {
        status: "failed",
        message:
          "body does not match the schema of getNodeBalancers 200: /data/0/label: must be string; /data/1/label: must be string; /data/2/label: must be string (and 2 more)",
        actual: [
          "/data/0/label: must be string",
          "/data/1/label: must be string",
          "/data/2/label: must be string",
          "/data/3/label: must be string",
          "/data/4/label: must be string",
        ],
      },
    },
    {
      name: "expected names the documented range the status fell under",
      context: ranged,
      exchange: exchange({ status: 299, json: {} }),
      outcome: { status: "failed", expected: "schema of getNodeBalancers 2XX" },
    },
    {
      name: "no schema for the status is skipped",
      context: withSchemas,
      exchange: exchange({ status: 404, json: { errors: [{ reason: "Not found" }] } }),
      outcome: {
        status: "skipped",
        reason: "no schema documented for getNodeBalancers 404 application/json",
      },
    },
    {
      name: "a 302 redirect without content is skipped",
      context: context({ spec, operation: loginRedirectOperation() }),
      exchange: exchange({ method: "POST", status: 302, text: "" }),
      outcome: { status: "skipped", reason: "no schema documented for postOAuthAuthorize 302" },
    },
    {
      name: "a body that is not JSON is skipped",
      context: withSchemas,
      exchange: exchange({ text: "<html>", headers: { "content-type": "application/json" } }),
      outcome: { status: "skipped", reason: "the body is not JSON" },
    },
    {
      name: "HEAD is skipped",
      context: withSchemas,
      exchange: exchange({ method: "HEAD", text: "", headers: { "content-type": "application/json" } }),
      outcome: { status: "skipped", reason: "HEAD responses carry no body (RFC 9110 §9.3.2)" },
    },
    {
      name: "a body truncated by the client's cap is skipped",
      context: withSchemas,
      exchange: exchange({
        text: '{"data":[{"label":"a"},',
        truncated: true,
        headers: { "content-type": "application/json" },
      }),
      outcome: { status: "skipped", reason: expect.stringContaining("truncated by the client's cap") },
    },
    {
      name: "no operation is skipped",
      context: context({ spec, operation: undefined }),
      exchange: exchange({ path: "/unknown", json: {} }),
      outcome: { status: "skipped", reason: "no operation in the spec for GET /v4/unknown" },
    },
  ]);

  it("asks the validator cache for the response's media type, without parameters", () => {
    const asked: unknown[][] = [];
    const spy = context({
      spec: stubSpec({
        validators: (...args) => {
          asked.push(args);
          return pageOfBalancers;
        },
      }),
    });
    bodyMatchesSchema.check(
      spy,
      exchange({ json: { data: [] }, headers: { "content-type": "Application/JSON; charset=utf-8" } }),
      undefined,
    );
    expect(asked).toEqual([["getNodeBalancers", 200, "application/json"]]);
  });
});
