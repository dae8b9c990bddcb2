import { describe } from "vitest";
import { changeType } from "../../../src/generators/mutations/change-type.ts";
import { mutationTable } from "./mutation-table.ts";

const wrongObject = { conform: "wrong-type" };
const wrongArray = ["wrong-type"];

describe("change-type", () => {
  mutationTable(changeType, [
    {
      name: "a string gets every other type but null",
      schema: { type: "string" },
      current: "x",
      edits: [12345, 1.5, true, wrongObject, wrongArray],
    },
    {
      name: "an integer gets a fraction too",
      schema: { type: "integer" },
      current: 3,
      edits: ["not-of-this-type", 1.5, true, wrongObject, wrongArray],
    },
    {
      name: "a number takes fractions and integers",
      schema: { type: "number" },
      current: 3,
      edits: ["not-of-this-type", true, wrongObject, wrongArray],
    },
    {
      name: "a nullable string still gets other types",
      schema: { type: ["string", "null"] },
      current: null,
      edits: [12345, 1.5, true, wrongObject, wrongArray],
    },
    {
      name: "an enum's type is its values' type",
      schema: { enum: ["a", "b"] },
      current: "a",
      edits: [12345, 1.5, true, wrongObject, wrongArray],
    },
    {
      name: "an absent property can be sent wrong",
      schema: { type: "boolean" },
      present: false,
      edits: ["not-of-this-type", 12345, 1.5, wrongObject, wrongArray],
    },
    {
      name: "not an absent one tied to another by dependentRequired",
      schema: { type: "string" },
      present: false,
      entangled: true,
      edits: [],
    },
    { name: "nothing where any type goes", schema: {}, current: 1, edits: [] },
    {
      name: "a oneOf of objects with no type of its own gets every type but object and null",
      schema: {
        oneOf: [
          { type: "object", required: ["a"] },
          { type: "object", required: ["b"] },
        ],
      },
      current: { a: 1 },
      edits: ["not-of-this-type", 12345, 1.5, true, wrongArray],
    },
    {
      name: "an anyOf gets only the types none of its branches allows",
      schema: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
      current: "x",
      edits: [12345, 1.5, true, wrongObject],
    },
    {
      name: "nothing where one branch allows any type",
      schema: { anyOf: [{ type: "string" }, { required: ["a"] }] },
      current: "x",
      edits: [],
    },
  ]);
});
