/**
 * X-Filter on nested fields (`entity.id`, `entity.type`, as the event feed declares them) as a table, written once
 * and run against the oracle and the reference's filter (`test/cases/nested-filter.test.ts`).
 *
 * The dataset is a few events: entity ids that are integers and one that is a string (an address), an event with
 * a null entity and one with none. Expected lists are the events' ids, in order (ties keep the collection's order).
 */
import type { FilterableField } from "../../src/spec/types.ts";

export interface EventRow {
  readonly id: number;
  readonly action: string;
  readonly entity?: { readonly id: number | string; readonly type: string; readonly label: string } | null;
}

/** The event feed's filterable fields this table uses (as the spec declares them). */
export const eventFields: readonly FilterableField[] = [
  { name: "id", type: "integer", nullable: false, extension: "x-compute-filterable" },
  { name: "action", type: "string", nullable: false, extension: "x-compute-filterable" },
  {
    name: "entity.id",
    type: "integer",
    nullable: true,
    extension: "x-compute-filterable",
    path: ["entity", "id"],
    types: ["integer", "string"],
  },
  {
    name: "entity.type",
    type: "string",
    nullable: true,
    extension: "x-compute-filterable",
    path: ["entity", "type"],
  },
];

export const events: readonly EventRow[] = [
  { id: 1, action: "compute_create", entity: { id: 12, type: "compute", label: "web-1" } },
  { id: 2, action: "compute_boot", entity: { id: 12, type: "compute", label: "web-1" } },
  { id: 3, action: "nodebalancer_create", entity: { id: 7, type: "nodebalancer", label: "lb" } },
  { id: 4, action: "ipaddress_allocate", entity: { id: "192.168.1.5", type: "ipaddress", label: "ip" } },
  { id: 5, action: "account_update", entity: null },
  { id: 6, action: "login" },
  { id: 7, action: "compute_create", entity: { id: 30, type: "compute", label: "db-1" } },
];

export interface NestedFilterCase {
  readonly name: string;
  readonly filter: Record<string, unknown>;
  /** Ids of the events answered, in order. */
  readonly expected: readonly number[];
}

export const nestedCases: readonly NestedFilterCase[] = [
  { name: "entity.id equal to an integer", filter: { "entity.id": 12 }, expected: [1, 2] },
  { name: "entity.id equal to a string", filter: { "entity.id": "192.168.1.5" }, expected: [4] },
  { name: "an integer entity.id is not its text", filter: { "entity.id": "12" }, expected: [] },
  { name: "entity.type", filter: { "entity.type": "compute" }, expected: [1, 2, 7] },
  {
    name: "entity.id and action (implicit AND)",
    filter: { "entity.id": 12, action: "compute_boot" },
    expected: [2],
  },
  {
    name: "entity.id inside +or",
    filter: { "+or": [{ "entity.id": 7 }, { "entity.id": "192.168.1.5" }] },
    expected: [3, 4],
  },
  {
    name: "+gt on entity.id skips the string and the missing ones",
    filter: { "entity.id": { "+gt": 10 } },
    expected: [1, 2, 7],
  },
  {
    name: "+contains on entity.id reads only text",
    filter: { "entity.id": { "+contains": "168" } },
    expected: [4],
  },
  {
    name: "+neq on entity.type holds where there is no entity",
    filter: { "entity.type": { "+neq": "compute" } },
    expected: [3, 4, 5, 6],
  },
  { name: "+contains on entity.type", filter: { "entity.type": { "+contains": "node" } }, expected: [3] },
  {
    name: "+order_by entity.type desc (no entity last)",
    filter: { "entity.type": { "+neq": "compute" }, "+order_by": "entity.type", "+order": "desc" },
    expected: [3, 4, 5, 6],
  },
  {
    name: "+order_by entity.type asc (no entity first)",
    filter: { "+order_by": "entity.type" },
    expected: [5, 6, 1, 2, 7, 4, 3],
  },
];

export interface NestedInvalidCase {
  readonly name: string;
  readonly filter: unknown;
  /** For `unfilterable-field`: the field the 400 must name in `Cannot filter on <field>`. */
  readonly field?: string;
}

export const nestedInvalidCases: readonly NestedInvalidCase[] = [
  {
    name: "a nested property that is not marked",
    filter: { "entity.label": "web-1" },
    field: "entity.label",
  },
  {
    name: "a nested property that does not exist",
    filter: { "entity.colour": "red" },
    field: "entity.colour",
  },
  { name: "the object itself", filter: { entity: { id: 12 } }, field: "entity" },
  { name: "a dotted path too deep", filter: { "entity.id.value": 12 }, field: "entity.id.value" },
  { name: "a dotted key inside +and", filter: { "+and": [{ "entity.url": "/v4" }] }, field: "entity.url" },
  { name: "+gt with a string on entity.id", filter: { "entity.id": { "+gt": "12" } } },
  { name: "+order_by a nested property not marked", filter: { "+order_by": "entity.label" } },
];
