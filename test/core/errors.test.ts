import { describe, expect, it } from "vitest";
import {
  ConfigError,
  SpecInvalidError,
  SpecLoadError,
  SuiteRequestError,
  TargetMismatchError,
  TokenRefusedError,
  ToolkitError,
} from "../../src/core/errors.ts";

describe("toolkit errors", () => {
  it.each([
    [new SpecLoadError("a.yaml", "no such file"), "SPEC_LOAD"],
    [new SpecInvalidError("a.yaml", [{ pointer: "/paths/~1x", message: "bad" }]), "SPEC_INVALID"],
    [new ConfigError("bad flag"), "CONFIG_INVALID"],
    [new TargetMismatchError("not a list"), "TARGET_NOT_THIS_API"],
    [new TokenRefusedError("401 on getProfile"), "TOKEN_REFUSED"],
    [
      new SuiteRequestError(
        { method: "GET", path: "/x", operationId: "getX" },
        "parameter-schema",
        "query.a",
        "bad",
      ),
      "SUITE_REQUEST_INVALID",
    ],
  ])("%s carries stable code %s and is recognised by brand", (error, code) => {
    expect(error.code).toBe(code);
    expect(ToolkitError.is(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
  });

  it("does not mistake plain errors for toolkit errors", () => {
    expect(ToolkitError.is(new Error("x"))).toBe(false);
    expect(ToolkitError.is({ code: "SPEC_LOAD" })).toBe(false);
  });

  it("names where an invalid description fails, and how many more problems there are", () => {
    const error = new SpecInvalidError("api.yaml", [
      { pointer: "/paths/~1a/get", message: "must have responses" },
      { pointer: "/info", message: "must have version" },
    ]);
    expect(error.message).toBe(
      "invalid API description api.yaml at /paths/~1a/get: must have responses (and 1 more)",
    );
  });

  it("names the request, the rule and the field of a suite's request that breaks the description", () => {
    const error = new SuiteRequestError(
      { method: "POST", path: "/nodebalancers", operationId: "createNodeBalancer" },
      "body-schema",
      "region",
      "must have required property 'region' (required)",
    );
    expect(error).toMatchObject({ operationId: "createNodeBalancer", rule: "body-schema", field: "region" });
    expect(error.message).toMatch(
      /^the suite's request POST \/nodebalancers \(createNodeBalancer\) does not follow the description, rule body-schema: region: must have required property 'region' \(required\); not sent/,
    );
  });
});
