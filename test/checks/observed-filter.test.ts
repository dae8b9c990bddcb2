import { describe } from "vitest";
import { observedFilter } from "../../src/checks/observed-filter.ts";
import { page, runSequenceCases, seen, typesList } from "../helpers/observed.ts";

const small = { id: "g6-a", memory: 1024 };
const big = { id: "g6-b", memory: 4096 };
const gt = { "x-filter": JSON.stringify({ memory: { "+gt": 1024 }, "+order_by": "memory" }) };
const event = (id: number, entityId: number | string) => ({
  id,
  action: "compute_boot",
  created: "2025-01-02T03:06:00",
  username: "conform-user",
  seen: false,
  entity: { id: entityId, label: "web", type: "compute", url: `/v4/compute/instances/${entityId}` },
});
const feed = (data: object[], filter: object) =>
  seen({
    operationId: "getEvents",
    path: "/account/events",
    json: page(data),
    requestHeaders: { "x-filter": JSON.stringify(filter) },
  });
const refused = (errors: object[]) =>
  typesList("/compute/types", { errors }, { "x-filter": '{"nope":1}' }, 400);

describe("observed-filter", () => {
  runSequenceCases(observedFilter, [
    {
      name: "a sound filtered answer passes",
      sequence: [typesList("/compute/types", page([big]), gt)],
      outcome: { status: "passed" },
    },
    {
      name: "an item the filter excludes fails",
      sequence: [typesList("/compute/types", page([small, big]), gt)],
      outcome: {
        status: "failed",
        message: "an item of a filtered list does not match the filter",
        expected: `every item matches ${gt["x-filter"]}`,
        actual: { item: '"g6-a"', value: small },
      },
    },
    {
      name: "a sound answer to a nested field's dotted key (entity.id) passes",
      sequence: [feed([event(1, 12), event(2, 12)], { "entity.id": 12, "+order_by": "entity.type" })],
      outcome: { status: "passed" },
    },
    {
      name: "an event of another entity in the answer to entity.id fails",
      sequence: [feed([event(1, 12), event(2, 7)], { "entity.id": 12 })],
      outcome: { status: "failed" },
    },
    {
      name: "an event without an entity in the answer to entity.id fails",
      sequence: [feed([event(1, 12), { ...event(2, 12), entity: null }], { "entity.id": 12 })],
      outcome: { status: "failed" },
    },
    {
      name: "a dotted key the description does not mark, answered 200, fails",
      sequence: [feed([event(1, 12)], { "entity.label": "web" })],
      outcome: { status: "failed" },
    },
    {
      name: "items out of +order_by order fail",
      sequence: [typesList("/compute/types", page([{ id: "c", memory: 8192 }, big]), gt)],
      outcome: { status: "failed", message: "items are not in memory asc order at index 1" },
    },
    {
      name: "an unfilterable field answered 200 fails",
      sequence: [typesList("/compute/types", page([]), { "x-filter": '{"nope":1}' })],
      outcome: { status: "failed" },
    },
    {
      name: "an unfilterable field refused with 400 passes",
      sequence: [refused([{ reason: "Cannot filter on nope", field: "X-Filter" }])],
      outcome: { status: "passed" },
    },
    {
      name: "a cut body is skipped",
      sequence: [
        {
          ...typesList("/compute/types", page([big]), gt),
          response: { ...typesList("/compute/types", page([big]), gt).response, truncated: true },
        },
      ],
      outcome: { status: "skipped" },
    },
    {
      name: "a list read without the filter header is not its business",
      sequence: [typesList("/compute/types", page([small]))],
      outcome: undefined,
    },
    {
      name: "an exchange of no operation is not its business",
      sequence: [{ ...typesList("/nowhere", page([small]), gt), operationId: undefined }],
      outcome: undefined,
    },
  ]);
});
