import { describe } from "vitest";
import { violatePattern } from "../../../src/generators/mutations/violate-pattern.ts";
import { mutationTable } from "./mutation-table.ts";

describe("violate-pattern", () => {
  mutationTable(violatePattern, [
    {
      name: "a label pattern",
      schema: { type: "string", pattern: "^[a-z0-9-]{3,32}$" },
      current: "web-1",
      edits: ["!!!", "   "],
    },
    {
      name: "within the length bounds",
      schema: { type: "string", pattern: "^[0-9]+$", minLength: 5, maxLength: 5 },
      current: "12345",
      edits: ["!!!!!", "     "],
    },
    {
      name: "a pattern that allows punctuation",
      schema: { type: "string", pattern: "^[!~ #]*$" },
      current: "!",
      edits: ["\u00e9\u00e9\u00e9", "aaa"],
    },
    {
      name: "not when no string that short fits the length",
      schema: { type: "string", pattern: "^a$", maxLength: 1 },
      current: "a",
      edits: [],
    },
    { name: "nothing without a pattern", schema: { type: "string" }, current: "x", edits: [] },
    {
      name: "nothing for a listed value",
      schema: { type: "string", pattern: "^a", enum: ["ab"] },
      current: "ab",
      edits: [],
    },
  ]);
});
