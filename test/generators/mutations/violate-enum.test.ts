import { describe } from "vitest";
import { violateEnum } from "../../../src/generators/mutations/violate-enum.ts";
import { mutationTable } from "./mutation-table.ts";

describe("violate-enum", () => {
  mutationTable(violateEnum, [
    {
      name: "a string not listed",
      schema: { type: "string", enum: ["http", "https", "tcp"] },
      current: "http",
      edits: ["http-not-listed"],
    },
    { name: "a number not listed", schema: { type: "integer", enum: [1, 2, 4] }, current: 2, edits: [5] },
    {
      name: "a const",
      schema: { type: "string", const: "ipv4" },
      current: "ipv4",
      edits: ["ipv4-not-listed"],
    },
    {
      name: "an absent optional property",
      schema: { type: "string", enum: ["a"] },
      present: false,
      edits: ["a-not-listed"],
    },
    { name: "nothing without an enum", schema: { type: "string" }, current: "x", edits: [] },
  ]);
});
