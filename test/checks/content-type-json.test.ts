import { describe } from "vitest";
import { contentTypeJson } from "../../src/checks/content-type-json.ts";
import {
  context,
  exchange,
  loginFormOperation,
  loginRedirectOperation,
  operation,
  responseInfo,
  runCheckCases,
} from "../helpers/exchanges.ts";

const problemJson = operation({
  responses: [responseInfo("200"), responseInfo("400", { contentTypes: ["application/problem+json"] })],
});

describe("content-type-json", () => {
  runCheckCases(contentTypeJson, [
    {
      name: "application/json passes",
      exchange: exchange({ json: { data: [] } }),
      outcome: { status: "passed" },
    },
    {
      name: "a charset=utf-8 parameter is allowed",
      exchange: exchange({ json: {}, headers: { "content-type": "application/json; charset=utf-8" } }),
      outcome: { status: "passed" },
    },
    {
      name: "media type matching is case-insensitive",
      exchange: exchange({ json: {}, headers: { "content-type": 'Application/JSON;Charset="UTF-8"' } }),
      outcome: { status: "passed" },
    },
    {
      name: "an error answer in JSON passes",
      exchange: exchange({ status: 404, json: { errors: [{ reason: "Not found" }] } }),
      outcome: { status: "passed" },
    },
    {
      name: "a +json type the operation documents passes",
      context: context({ operation: problemJson }),
      exchange: exchange({
        status: 400,
        json: { errors: [] },
        headers: { "content-type": "application/problem+json" },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "a truncated JSON body is not re-parsed",
      exchange: exchange({
        text: '{"data": [',
        truncated: true,
        headers: { "content-type": "application/json" },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "text/html on an API operation fails",
      exchange: exchange({
        status: 502,
        text: "<html>Bad gateway</html>",
        headers: { "content-type": "text/html" },
      }),
      outcome: {
        status: "failed",
        message: "Content-Type is text/html, expected application/json",
        expected: "application/json",
        actual: "text/html",
      },
    },
    {
      name: "a body without Content-Type fails",
      exchange: exchange({ text: "{}" }),
      outcome: { status: "failed", message: "the response has a 2-byte body but no Content-Type" },
    },
    {
      name: "a charset other than UTF-8 fails",
      exchange: exchange({ json: {}, headers: { "content-type": "application/json; charset=iso-8859-1" } }),
      outcome: {
        status: "failed",
        message:
          "Content-Type charset is iso-8859-1: JSON exchanged between systems is UTF-8 (RFC 8259 §8.1)",
      },
    },
    {
      name: "a body labelled JSON that does not parse fails",
      exchange: exchange({ text: "Internal error", headers: { "content-type": "application/json" } }),
      outcome: { status: "failed", message: "Content-Type is application/json but the body is not JSON" },
    },
    {
      name: "an unparseable Content-Type fails",
      exchange: exchange({ text: "{}", headers: { "content-type": "json" } }),
      outcome: { status: "failed", message: "Content-Type is json, expected application/json" },
    },
    {
      name: "the login form documented as text/html is skipped",
      context: context({ operation: loginFormOperation() }),
      exchange: exchange({
        path: "https://auth.example.test/oauth/authorize",
        text: "<!doctype html><form>",
        headers: { "content-type": "text/html" },
      }),
      outcome: { status: "skipped", reason: "getOAuthAuthorize documents text/html for 200, not JSON" },
    },
    {
      name: "a 302 documented without content is skipped, even with a note in its body",
      context: context({ operation: loginRedirectOperation() }),
      exchange: exchange({
        method: "POST",
        status: 302,
        text: "Found. Redirecting",
        headers: { "content-type": "text/plain", location: "https://app.example/cb?code=1" },
      }),
      outcome: { status: "skipped", reason: "postOAuthAuthorize documents no content for 302 (a redirect)" },
    },
    {
      name: "a response without a body is skipped",
      exchange: exchange({ status: 204, text: "" }),
      outcome: { status: "skipped", reason: "the response has no body" },
    },
    {
      name: "HEAD is skipped",
      exchange: exchange({ method: "HEAD", text: "", headers: { "content-type": "application/json" } }),
      outcome: { status: "skipped", reason: "HEAD responses carry no body (RFC 9110 §9.3.2)" },
    },
    {
      name: "without an operation the API's convention (JSON) still holds",
      context: context({ operation: undefined }),
      exchange: exchange({ status: 404, text: "Not Found", headers: { "content-type": "text/plain" } }),
      outcome: { status: "failed", actual: "text/plain" },
    },
  ]);
});
