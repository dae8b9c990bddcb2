import { describe } from "vitest";
import { nullWhereNotNullable } from "../../../src/generators/mutations/null-where-not-nullable.ts";
import { mutationTable } from "./mutation-table.ts";

describe("null-where-not-nullable", () => {
  mutationTable(nullWhereNotNullable, [
    { name: "a string", schema: { type: "string" }, current: "x", edits: [null] },
    { name: "an object", schema: { type: "object" }, current: {}, edits: [null] },
    { name: "an absent optional property", schema: { type: "integer" }, present: false, edits: [null] },
    { name: "not where null is a type", schema: { type: ["string", "null"] }, current: "x", edits: [] },
    { name: "not where null is listed", schema: { enum: ["a", null] }, current: "a", edits: [] },
    {
      name: "not an absent entangled one",
      schema: { type: "string" },
      present: false,
      entangled: true,
      edits: [],
    },
    { name: "not where any type goes", schema: {}, current: 1, edits: [] },
  ]);
});
