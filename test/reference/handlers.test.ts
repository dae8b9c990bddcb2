import { describe, expect, it } from "vitest";
import { handlers } from "../../src/reference/handlers/index.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
const operationIds = spec.operations.all().map((operation) => operation.operationId);

describe("reference handlers cover the spec", () => {
  it.each(operationIds)("%s has a handler", (operationId) => {
    expect(typeof handlers[operationId]).toBe("function");
  });

  it("no handler names an operation the spec lacks", () => {
    expect(Object.keys(handlers).filter((id) => !operationIds.includes(id))).toEqual([]);
  });
});
