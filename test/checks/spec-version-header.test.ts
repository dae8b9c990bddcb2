import { describe } from "vitest";
import { specVersionHeader } from "../../src/checks/spec-version-header.ts";
import {
  context,
  exchange,
  loginFormOperation,
  operation,
  responseInfo,
  runCheckCases,
  stubSpec,
} from "../helpers/exchanges.ts";

const loginDocumentingVersion = operation({
  operationId: "createOAuthToken",
  serverUrl: "{auth_url}",
  responses: [responseInfo("200", { headers: ["x-spec-version"] })],
});

/** Another edition of the description, documenting no X-Spec-Version anywhere. */
const undocumented = operation({ responses: [responseInfo("200", { headers: [] })] });
const silentSpec = stubSpec({ operations: [undocumented] });

describe("spec-version-header", () => {
  runCheckCases(specVersionHeader, [
    {
      name: "missing where the description documents it nowhere is skipped, saying so",
      context: context({ spec: silentSpec, operation: undocumented }),
      exchange: exchange({ headers: { "x-spec-version": undefined } }),
      outcome: {
        status: "skipped",
        reason: "the description documents no X-Spec-Version header on the API's answers",
      },
    },
    {
      name: "present where the description documents it nowhere is still judged",
      context: context({ spec: silentSpec, operation: undocumented }),
      exchange: exchange({ headers: { "x-spec-version": "5.0.0" } }),
      outcome: { status: "failed", severity: "error" },
    },
    { name: "the described release passes", exchange: exchange(), outcome: { status: "passed" } },
    {
      name: "missing from a recording that kept it on none of its answers is skipped, saying so",
      context: context({ headersKept: ["content-type", "x-ratelimit-limit"] }),
      exchange: exchange({ headers: { "x-spec-version": undefined } }),
      outcome: {
        status: "skipped",
        reason: "the recording kept X-Spec-Version on none of its answers: it cannot be judged",
      },
    },
    {
      name: "missing from a recording that kept it on other answers fails",
      context: context({ headersKept: ["x-spec-version"] }),
      exchange: exchange({ headers: { "x-spec-version": undefined } }),
      outcome: { status: "failed", message: "X-Spec-Version is missing" },
    },
    {
      name: "surrounding whitespace is ignored",
      exchange: exchange({ headers: { "x-spec-version": " 4.176.0 " } }),
      outcome: { status: "passed" },
    },
    {
      name: "on an error answer too",
      exchange: exchange({ status: 404, json: { errors: [{ reason: "Not found" }] } }),
      outcome: { status: "passed" },
    },
    {
      name: "missing on an API response fails",
      exchange: exchange({ headers: { "x-spec-version": undefined } }),
      outcome: {
        status: "failed",
        message: "X-Spec-Version is missing",
        expected: "4.176.0",
        actual: undefined,
      },
    },
    {
      name: "missing on a status the operation does not document is skipped: only a documented answer promises it",
      exchange: exchange({ status: 404, headers: { "x-spec-version": undefined } }),
      outcome: {
        status: "skipped",
        reason: "getNodeBalancers documents no 404 answer, so no X-Spec-Version on it",
      },
    },
    {
      name: "missing on an answer documented without it is skipped, naming the answer",
      context: context({ operation: operation({ responses: [responseInfo("200", { headers: [] })] }) }),
      exchange: exchange({ headers: { "x-spec-version": undefined } }),
      outcome: {
        status: "skipped",
        reason: "the 200 answer of getNodeBalancers documents no X-Spec-Version header",
      },
    },
    {
      name: "missing on a status documented through a range (4XX) that documents it fails",
      context: context({
        operation: operation({ responses: [responseInfo("4XX", { headers: ["x-spec-version"] })] }),
      }),
      exchange: exchange({ status: 404, headers: { "x-spec-version": undefined } }),
      outcome: { status: "failed", message: "X-Spec-Version is missing" },
    },
    {
      name: "another release of the same major version fails as a warning",
      exchange: exchange({ headers: { "x-spec-version": "4.177.1" } }),
      outcome: {
        status: "failed",
        message: "X-Spec-Version is 4.177.1, the spec describes 4.176.0",
        severity: "warning",
        expected: "4.176.0",
        actual: "4.177.1",
      },
    },
    {
      name: "another major version fails as an error",
      exchange: exchange({ headers: { "x-spec-version": "5.0.0" } }),
      outcome: { status: "failed", severity: "error" },
    },
    {
      name: "a malformed value fails",
      exchange: exchange({ headers: { "x-spec-version": "v4" } }),
      outcome: { status: "failed", message: 'X-Spec-Version "v4" is not a MAJOR.MINOR.PATCH release' },
    },
    {
      name: "a wrong value on a login-server response fails (present values are always judged)",
      context: context({ operation: loginFormOperation() }),
      exchange: exchange({ headers: { "x-spec-version": "4.0.0" } }),
      outcome: { status: "failed", severity: "warning" },
    },
    {
      name: "missing where a login-server response documents it fails",
      context: context({ operation: loginDocumentingVersion }),
      exchange: exchange({ method: "POST", headers: { "x-spec-version": undefined } }),
      outcome: { status: "failed", message: "X-Spec-Version is missing" },
    },
    {
      name: "missing on an undocumented login-server response is skipped",
      context: context({ operation: loginFormOperation() }),
      exchange: exchange({ headers: { "x-spec-version": undefined } }),
      outcome: {
        status: "skipped",
        reason: "the 200 answer of getOAuthAuthorize documents no X-Spec-Version header",
      },
    },
    {
      name: "missing without an operation is skipped",
      context: context({ operation: undefined }),
      exchange: exchange({ path: "/nowhere", headers: { "x-spec-version": undefined } }),
      outcome: { status: "skipped", reason: "no operation in the spec for GET /v4/nowhere" },
    },
  ]);
});
