import { describe, expect, it } from "vitest";
import { listShape } from "../../src/spec/list-shape.ts";
import type { FilterableField } from "../../src/spec/types.ts";

/** A document whose list `data` items are `item` (a schema), next to `components.schemas`. */
function documentWith(item: unknown, schemas: Record<string, unknown> = {}) {
  return {
    components: {
      schemas: {
        ...schemas,
        Page: {
          type: "object",
          properties: {
            page: { type: "integer" },
            pages: { type: "integer" },
            results: { type: "integer" },
            data: { type: "array", items: item },
          },
        },
      },
    },
  };
}

const list = { $ref: "#/components/schemas/Page" };
const mark = "x-compute-filterable";
const fieldsOf = (item: unknown, schemas?: Record<string, unknown>): readonly FilterableField[] =>
  listShape(documentWith(item, schemas), "openapi-3.1", list).filterableFields;

const entity = {
  type: ["object", "null"],
  properties: {
    id: { type: ["integer", "string"], [mark]: true },
    label: { type: ["string", "null"] },
    type: { type: "string", [mark]: true },
  },
};

describe("listShape: nested filterable fields", () => {
  it.each<[string, unknown, Record<string, unknown> | undefined, readonly FilterableField[]]>([
    [
      "an object property's marked properties, by dotted path, with every scalar type and the parent's null",
      { type: "object", properties: { action: { type: "string", [mark]: true }, entity } },
      undefined,
      [
        { name: "action", type: "string", nullable: false, extension: mark },
        {
          name: "entity.id",
          type: "integer",
          nullable: true,
          extension: mark,
          path: ["entity", "id"],
          types: ["integer", "string"],
        },
        { name: "entity.type", type: "string", nullable: true, extension: mark, path: ["entity", "type"] },
      ],
    ],
    [
      "through a $ref to the object and allOf inside it; a parent that admits no null keeps the field non-null",
      { type: "object", properties: { owner: { $ref: "#/components/schemas/Owner" } } },
      {
        Owner: {
          allOf: [
            { type: "object", properties: { id: { type: "integer", [mark]: true } } },
            { properties: { kind: { oneOf: [{ type: "integer" }, { type: "string" }], [mark]: true } } },
          ],
        },
      },
      [
        { name: "owner.id", type: "integer", nullable: false, extension: mark, path: ["owner", "id"] },
        {
          name: "owner.kind",
          type: "integer",
          nullable: false,
          extension: mark,
          path: ["owner", "kind"],
          types: ["integer", "string"],
        },
      ],
    ],
    [
      "two levels down",
      {
        type: "object",
        properties: {
          a: {
            type: "object",
            properties: { b: { type: "object", properties: { c: { type: "boolean", [mark]: true } } } },
          },
        },
      },
      undefined,
      [{ name: "a.b.c", type: "boolean", nullable: false, extension: mark, path: ["a", "b", "c"] }],
    ],
    [
      "an object marked filterable itself is no field, and unmarked nested properties are none",
      {
        type: "object",
        properties: { meta: { type: "object", [mark]: true, properties: { x: { type: "string" } } } },
      },
      undefined,
      [],
    ],
    [
      "a schema that contains itself ends",
      { $ref: "#/components/schemas/Node" },
      {
        Node: {
          type: "object",
          properties: {
            id: { type: "integer", [mark]: true },
            parent: { $ref: "#/components/schemas/Node" },
          },
        },
      },
      [
        { name: "id", type: "integer", nullable: false, extension: mark },
        { name: "parent.id", type: "integer", nullable: false, extension: mark, path: ["parent", "id"] },
        {
          name: "parent.parent.id",
          type: "integer",
          nullable: false,
          extension: mark,
          path: ["parent", "parent", "id"],
        },
        {
          name: "parent.parent.parent.id",
          type: "integer",
          nullable: false,
          extension: mark,
          path: ["parent", "parent", "parent", "id"],
        },
        {
          name: "parent.parent.parent.parent.id",
          type: "integer",
          nullable: false,
          extension: mark,
          path: ["parent", "parent", "parent", "parent", "id"],
        },
      ],
    ],
  ])("%s", (_title, item, schemas, expected) => {
    expect(fieldsOf(item, schemas)).toEqual(expected);
  });
});
