import { describe, expect, it } from "vitest";
import { fieldPath } from "../../src/spec/issues.ts";

describe("fieldPath: pointer tokens in the API's own error style", () => {
  it.each([
    [{ label: "x" }, [], ""],
    [{ label: "x" }, ["label"], "label"],
    [{ configs: [{ port: 1 }] }, ["configs", "0", "port"], "configs[0].port"],
    [[{ name: "a" }], ["0", "name"], "[0].name"],
    [{ matrix: [[1, 2]] }, ["matrix", "0", "1"], "matrix[0][1]"],
    // `0` is an index only where the value is an array; here it is a key.
    [{ counts: { "0": 5 } }, ["counts", "0"], "counts.0"],
    // A missing property (for `required`) is named though the value does not have it.
    [{ configs: [{}] }, ["configs", "0", "port"], "configs[0].port"],
    [{ specs: null }, ["specs", "disk"], "specs.disk"],
  ])("%j at %j is %j", (value, tokens, field) => {
    expect(fieldPath(value, tokens)).toBe(field);
  });
});
