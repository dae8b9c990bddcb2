import { describe, expect, it } from "vitest";
import { errorBodyShape, errorEnvelopeProblems } from "../../src/checks/error-body-shape.ts";
import { tinyDescription } from "../helpers/descriptions.ts";
import {
  context,
  exchange,
  loginFormOperation,
  loginRedirectOperation,
  operation,
  responseInfo,
  runCheckCases,
} from "../helpers/exchanges.ts";

const htmlErrors = operation({
  operationId: "getOAuthAuthorize",
  serverUrl: "{auth_url}",
  responses: [
    responseInfo("200", { contentTypes: ["text/html"] }),
    responseInfo("4XX", { contentTypes: ["text/html"] }),
  ],
});

describe("error-body-shape", () => {
  runCheckCases(errorBodyShape, [
    {
      name: "one error with a reason passes",
      exchange: exchange({ status: 404, json: { errors: [{ reason: "Not found" }] } }),
      outcome: { status: "passed" },
    },
    {
      name: "several errors with fields (nested paths too) pass",
      exchange: exchange({
        status: 400,
        json: {
          errors: [
            { reason: "Cannot filter on hypervisor", field: "X-Filter" },
            { reason: "Must be 1-65535", field: "configs[0].port" },
          ],
        },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "extra properties are tolerated",
      exchange: exchange({
        status: 500,
        json: { errors: [{ reason: "Please try again", code: 17 }], trace: "x" },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "a null field fails: it is omitted, not null",
      exchange: exchange({ status: 401, json: { errors: [{ reason: "Invalid Token", field: null }] } }),
      outcome: {
        status: "failed",
        message: "errors[0].field is null: omit field when no single input is at fault",
        actual: ["errors[0].field is null: omit field when no single input is at fault"],
      },
    },
    {
      name: "an empty errors array fails",
      exchange: exchange({ status: 400, json: { errors: [] } }),
      outcome: { status: "failed", message: "errors is empty: an error response names at least one error" },
    },
    {
      name: "a missing reason and a blank field are both reported",
      exchange: exchange({
        status: 400,
        json: { errors: [{ field: "label" }, { reason: "Too short", field: "" }] },
      }),
      outcome: {
        status: "failed",
        message: "errors[0] has no reason (and 1 more)",
        actual: [
          "errors[0] has no reason",
          "errors[1].field is blank: omit field when no single input is at fault",
        ],
      },
    },
    {
      name: "another error format fails",
      exchange: exchange({ status: 404, json: { error: "not_found", message: "Not found" } }),
      outcome: { status: "failed", message: "error body has no errors array" },
    },
    {
      name: "an HTML error page on an API operation fails",
      exchange: exchange({
        status: 502,
        text: "<html>Bad gateway</html>",
        headers: { "content-type": "text/html" },
      }),
      outcome: {
        status: "failed",
        message: "error response 502 has a body that is not JSON, expected {errors: [...]}",
      },
    },
    {
      name: "an error without a body fails",
      exchange: exchange({ status: 405, text: "" }),
      outcome: { status: "failed", message: "error response 405 has no body, expected {errors: [...]}" },
    },
    {
      name: "the login server's JSON errors are judged too",
      context: context({ operation: loginFormOperation() }),
      exchange: exchange({
        status: 400,
        json: { errors: [{ reason: "Unknown client", field: "client_id" }] },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "an error documented as HTML is skipped",
      context: context({ operation: htmlErrors }),
      exchange: exchange({
        status: 400,
        text: "<p>Unknown client</p>",
        headers: { "content-type": "text/html" },
      }),
      outcome: { status: "skipped", reason: "getOAuthAuthorize documents text/html for 4XX, not JSON" },
    },
    {
      name: "a 302 redirect is skipped",
      context: context({ operation: loginRedirectOperation() }),
      exchange: exchange({ method: "POST", status: 302, text: "" }),
      outcome: { status: "skipped", reason: "status 302 is not an error response" },
    },
    {
      name: "a success is skipped",
      exchange: exchange({ json: { data: [] } }),
      outcome: { status: "skipped", reason: "status 200 is not an error response" },
    },
    {
      name: "HEAD is skipped",
      exchange: exchange({ method: "HEAD", status: 404, text: "" }),
      outcome: { status: "skipped", reason: "HEAD responses carry no body (RFC 9110 §9.3.2)" },
    },
    {
      name: "a truncated body is skipped",
      exchange: exchange({ status: 400, text: '{"errors":[{"reason":"', truncated: true }),
      outcome: { status: "skipped", reason: expect.stringContaining("truncated") },
    },
  ]);

  it.each([
    [null, ["error body is null, expected an object with an errors array"]],
    [[{ reason: "x" }], ["error body is an array, expected an object with an errors array"]],
    [{ errors: "Not found" }, ['errors is the string "Not found", expected an array']],
    [{ errors: ["Not found"] }, ['errors[0] is the string "Not found", expected {reason, field?}']],
    [{ errors: [{ reason: 404 }] }, ["errors[0].reason is number 404, expected a string"]],
    [{ errors: [{ reason: "  " }] }, ["errors[0].reason is blank"]],
    [{ errors: [{ reason: "Bad", field: ["label"] }] }, ["errors[0].field is an array, expected a string"]],
  ])("names what is wrong with %j", (body, problems) => {
    expect(errorEnvelopeProblems(body)).toEqual(problems);
  });

  it.each([
    [{ problems: [{ message: "Bad", pointer: "/label" }] }, []],
    [{ errors: [{ reason: "Bad" }] }, ["error body has no problems array"]],
    [{ problems: [{ reason: "Bad" }] }, ["problems[0] has no message"]],
    [
      { problems: [{ message: "Bad", pointer: null }] },
      ["problems[0].pointer is null: omit pointer when no single input is at fault"],
    ],
  ])("judges another edition's envelope in its own names: %j", (body, problems) => {
    expect(errorEnvelopeProblems(body, { list: "problems", reason: "message", field: "pointer" })).toEqual(
      problems,
    );
  });

  it("skips, naming what they are instead, where the description's errors are another API's {id, message}", async () => {
    const spec = await tinyDescription({
      "/things/{id}": {
        get: {
          operationId: "getThing",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "ok" },
            "404": {
              description: "absent",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { id: { type: "string" }, message: { type: "string" } },
                  },
                },
              },
            },
          },
        },
      },
    });
    const outcome = errorBodyShape.check(
      context({ spec, operation: spec.operations.byId("getThing") }),
      exchange({ status: 404, json: { id: "not_found", message: "The resource was not found." } }),
      undefined,
    );
    expect(outcome).toEqual({
      status: "skipped",
      reason: "the description's errors are not an array of errors (getThing 404 answers {id, message})",
    });
  });
});
