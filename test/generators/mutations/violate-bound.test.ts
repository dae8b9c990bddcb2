import { describe } from "vitest";
import { violateBound } from "../../../src/generators/mutations/violate-bound.ts";
import { mutationTable } from "./mutation-table.ts";

describe("violate-bound", () => {
  mutationTable(violateBound, [
    {
      name: "integer minimum and maximum",
      schema: { type: "integer", minimum: 1, maximum: 65535 },
      current: 80,
      edits: [0, 65536],
    },
    {
      name: "exclusive bounds are themselves out",
      schema: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 10 },
      current: 5,
      edits: [0, 10],
    },
    {
      name: "half steps where any number goes",
      schema: { type: "number", minimum: 0, maximum: 1 },
      current: 0.5,
      edits: [-0.5, 1.5],
    },
    {
      name: "minLength and maxLength",
      schema: { type: "string", minLength: 3, maxLength: 5 },
      current: "abcd",
      edits: ["aa", "aaaaaa"],
    },
    {
      name: "minLength 1 leaves the empty string",
      schema: { type: "string", minLength: 1 },
      current: "a",
      edits: [""],
    },
    {
      name: "minItems keeps the valid items it can",
      schema: { type: "array", minItems: 2, items: { type: "integer" } },
      current: [1, 2, 3],
      edits: [[1]],
    },
    {
      name: "maxItems pads with the valid items there",
      schema: { type: "array", maxItems: 2, items: { type: "integer" } },
      current: [7],
      edits: [[7, 7, 7]],
    },
    {
      name: "an absent optional property",
      schema: { type: "integer", maximum: 20 },
      present: false,
      edits: [21],
    },
    {
      name: "no items to pad an absent array with",
      schema: { type: "array", maxItems: 1 },
      present: false,
      edits: [],
    },
    { name: "nothing without bounds", schema: { type: "string" }, current: "x", edits: [] },
    {
      name: "nothing for listed values",
      schema: { type: "integer", enum: [1, 2], minimum: 1 },
      current: 1,
      edits: [],
    },
  ]);
});
