import { describe } from "vitest";
import { observedErrorField } from "../../src/checks/observed-error-field.ts";
import { runSequenceCases, seen, typesList } from "../helpers/observed.ts";

const badFilter = (errors: object[]) =>
  typesList("/compute/types", { errors }, { "x-filter": '{"nope":1}' }, 400);
const badBody = (errors: object[]) =>
  seen({
    operationId: "createNodeBalancer",
    method: "POST",
    path: "/nodebalancers",
    requestBody: { region: 17 },
    status: 400,
    json: { errors },
  });

describe("observed-error-field", () => {
  runSequenceCases(observedErrorField, [
    {
      name: "an unfilterable field refused naming X-Filter passes",
      sequence: [badFilter([{ reason: "Cannot filter on nope", field: "X-Filter" }])],
      outcome: { status: "passed" },
    },
    {
      name: "an unfilterable field refused naming no field fails",
      sequence: [badFilter([{ reason: "Cannot filter on nope" }])],
      outcome: { status: "failed", message: "a 400 to a request whose fault is X-Filter names no field" },
    },
    {
      name: "a page_size out of bounds refused naming no field fails",
      sequence: [typesList("/compute/types?page_size=5", { errors: [{ reason: "too small" }] }, {}, 400)],
      outcome: { status: "failed" },
    },
    {
      name: "a body breaking the schema at a field, refused naming it, passes",
      sequence: [badBody([{ reason: "region must be a string", field: "region" }])],
      outcome: { status: "passed" },
    },
    {
      name: "a body breaking the schema at a field, refused naming none, fails",
      sequence: [badBody([{ reason: "region must be a string" }])],
      outcome: { status: "failed" },
    },
    {
      name: "a 400 to a request whose fault the description cannot place is not its business",
      sequence: [typesList("/compute/types", { errors: [{ reason: "no" }] }, {}, 400)],
      outcome: undefined,
    },
    {
      name: "a 200 is not its business",
      sequence: [typesList("/compute/types", { data: [], page: 1, pages: 1, results: 0 })],
      outcome: undefined,
    },
  ]);
});
