import { describe } from "vitest";
import { observedGoneAfterDelete } from "../../src/checks/observed-gone-after-delete.ts";
import { page, runSequenceCases, seen } from "../helpers/observed.ts";

const remove = (status = 200) =>
  seen({ operationId: "deleteNodeBalancer", method: "DELETE", path: "/nodebalancers/12", status, json: {} });
const read = (status: number, json: unknown = { id: 12, label: "lb-one" }) =>
  seen({ operationId: "getNodeBalancer", path: "/nodebalancers/12", status, json });
const list = (ids: number[]) =>
  seen({ operationId: "getNodeBalancers", path: "/nodebalancers", json: page(ids.map((id) => ({ id }))) });
const notFound = { errors: [{ reason: "Not found" }] };

describe("observed-gone-after-delete", () => {
  runSequenceCases(observedGoneAfterDelete, [
    {
      name: "a read after the delete answered 404 passes",
      sequence: [remove(), read(404, notFound)],
      outcome: { status: "passed" },
    },
    {
      name: "a read after the delete answered 200 fails",
      sequence: [remove(), read(200)],
      outcome: {
        status: "failed",
        message: "a read after DELETE /v4/nodebalancers/12 is answered 200",
        expected: 404,
      },
    },
    {
      name: "a list after the delete still holding the item fails",
      sequence: [remove(), list([11, 12])],
      outcome: { status: "failed", message: "a list after DELETE /v4/nodebalancers/12 still holds the item" },
    },
    {
      name: "a list after the delete without the item passes",
      sequence: [remove(), list([11])],
      outcome: { status: "passed" },
    },
    {
      name: "an instance still deleting is skipped with the reason",
      sequence: [
        seen({
          operationId: "deleteComputeInstance",
          method: "DELETE",
          path: "/compute/instances/3",
          json: {},
        }),
        seen({
          operationId: "getComputeInstance",
          path: "/compute/instances/3",
          json: { id: 3, status: "deleting" },
        }),
      ],
      outcome: {
        status: "skipped",
        reason: "the item read after DELETE /v4/compute/instances/3 is still deleting",
      },
    },
    {
      name: "a refused delete leaves the item: not judged",
      sequence: [remove(404), read(200)],
      outcome: undefined,
    },
    {
      name: "the same id created again ends what is known of the deleted one",
      sequence: [
        remove(),
        seen({
          operationId: "createNodeBalancer",
          method: "POST",
          path: "/nodebalancers",
          requestBody: {},
          json: { id: 12 },
        }),
        read(200),
      ],
      outcome: undefined,
    },
    {
      name: "a read with no delete before it is not its business",
      sequence: [read(200)],
      outcome: undefined,
    },
    {
      name: "a list of another collection is not its business",
      sequence: [
        remove(),
        seen({
          operationId: "getNodeBalancerConfigs",
          path: "/nodebalancers/11/configs",
          json: page([{ id: 12 }]),
        }),
      ],
      outcome: undefined,
    },
  ]);
});
