import { describe } from "vitest";
import { documentedHeaders } from "../../src/checks/documented-headers.ts";
import {
  context,
  exchange,
  loginRedirectOperation,
  operation,
  responseInfo,
  runCheckCases,
} from "../helpers/exchanges.ts";

const withScopes = operation({
  responses: [
    responseInfo("200", {
      headers: [
        "x-spec-version",
        "x-oauth-scopes",
        { name: "x-customer-uuid", required: false, schema: { type: "string" } },
        { name: "content-type", required: true, schema: { type: "string" } },
        { name: "x-page-weight", required: true, schema: { type: ["number", "null"] } },
        { name: "x-beta", required: true, schema: { type: "boolean" } },
        { name: "x-any", required: true, schema: undefined },
      ],
    }),
  ],
});
const scoped = { "x-oauth-scopes": "*", "x-page-weight": "1.5", "x-beta": "false", "x-any": "whatever" };

describe("documented-headers", () => {
  runCheckCases(documentedHeaders, [
    {
      name: "all required headers present and typed pass",
      exchange: exchange(),
      outcome: { status: "passed" },
    },
    {
      name: "optional headers may be absent; Content-Type entries are ignored; number, boolean and untyped read",
      context: context({ operation: withScopes }),
      exchange: exchange({ text: "", headers: scoped }),
      outcome: { status: "passed" },
    },
    {
      name: "a 302 with its Location passes",
      context: context({ operation: loginRedirectOperation() }),
      exchange: exchange({
        method: "POST",
        status: 302,
        headers: { location: "https://app.example/cb?code=1" },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "a missing required header fails",
      context: context({ operation: withScopes }),
      exchange: exchange({ headers: { ...scoped, "x-oauth-scopes": undefined } }),
      outcome: {
        status: "failed",
        message: "x-oauth-scopes is missing (getNodeBalancers 200)",
        expected: ["x-spec-version", "x-oauth-scopes", "content-type", "x-page-weight", "x-beta", "x-any"],
      },
    },
    {
      name: "a value that is not an integer fails",
      exchange: exchange({ headers: { "x-ratelimit-limit": "lots" } }),
      outcome: {
        status: "failed",
        message: 'x-ratelimit-limit "lots" is not an integer (getNodeBalancers 200)',
        actual: { "x-spec-version": "4.176.0", "x-ratelimit-limit": "lots" },
      },
    },
    {
      name: "number and boolean values are read",
      context: context({ operation: withScopes }),
      exchange: exchange({ headers: { ...scoped, "x-page-weight": "heavy", "x-beta": "yes" } }),
      outcome: {
        status: "failed",
        message:
          'x-page-weight "heavy" is not a number; x-beta "yes" is not a boolean (getNodeBalancers 200)',
      },
    },
    {
      name: "a 302 without Location fails",
      context: context({ operation: loginRedirectOperation() }),
      exchange: exchange({ method: "POST", status: 302 }),
      outcome: { status: "failed", message: "location is missing (postOAuthAuthorize 302)" },
    },
    {
      name: "an undocumented status is skipped",
      exchange: exchange({ status: 404 }),
      outcome: { status: "skipped", reason: "status 404 is not documented for getNodeBalancers" },
    },
    {
      name: "no operation is skipped",
      context: context({ operation: undefined }),
      exchange: exchange({ path: "/nowhere" }),
      outcome: { status: "skipped", reason: "no operation in the spec for GET /v4/nowhere" },
    },
  ]);
});
