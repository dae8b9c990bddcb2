import { describe } from "vitest";
import { removeRequiredProperty } from "../../../src/generators/mutations/remove-required-property.ts";
import { mutationTable } from "./mutation-table.ts";

describe("remove-required-property", () => {
  mutationTable(removeRequiredProperty, [
    {
      name: "a required property sent is left out",
      schema: { type: "string" },
      current: "us-east",
      required: true,
      edits: ["remove"],
    },
    { name: "an optional one is not", schema: { type: "string" }, current: "x", edits: [] },
    {
      name: "one not sent cannot be left out",
      schema: { type: "string" },
      present: false,
      required: true,
      edits: [],
    },
    { name: "whatever its schema", schema: {}, current: { any: 1 }, required: true, edits: ["remove"] },
  ]);
});
