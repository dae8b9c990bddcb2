import { describe } from "vitest";
import { observedStartsEmpty } from "../../src/checks/observed-starts-empty.ts";
import { page, runSequenceCases, seen } from "../helpers/observed.ts";

const create = (body: object = { region: "us-east" }, status = 200) =>
  seen({
    operationId: "createNodeBalancer",
    method: "POST",
    path: "/nodebalancers",
    requestBody: body,
    status,
    json: status === 200 ? { id: 12, region: "us-east" } : { errors: [{ reason: "region is required" }] },
  });
const profiles = (ids: number[], headers: Record<string, string> = {}) =>
  seen({
    operationId: "getNodeBalancerConfigs",
    path: "/nodebalancers/12/configs",
    requestHeaders: headers,
    json: page(ids.map((id) => ({ id, port: 80 }))),
  });
const addProfile = () =>
  seen({
    operationId: "createNodeBalancerConfig",
    method: "POST",
    path: "/nodebalancers/12/configs",
    requestBody: { port: 80 },
    json: { id: 3, port: 80 },
  });

describe("observed-starts-empty", () => {
  runSequenceCases(observedStartsEmpty, [
    {
      name: "a new load balancer's empty profile list passes",
      sequence: [create(), profiles([])],
      outcome: { status: "passed" },
    },
    {
      name: "a new load balancer listing a profile the traffic never created fails",
      sequence: [create(), profiles([3])],
      outcome: {
        status: "failed",
        message:
          "GET /v4/nodebalancers/12/configs lists 1 item(s) under the item POST /v4/nodebalancers made, where the traffic created none",
        expected: 0,
        actual: 1,
      },
    },
    {
      name: "after a profile's create under it, the list is not judged",
      sequence: [create(), addProfile(), profiles([3])],
      outcome: undefined,
    },
    {
      name: "profiles sent with the load balancer's create (configs) are not judged",
      sequence: [create({ region: "us-east", configs: [{ port: 80 }] }), profiles([3])],
      outcome: undefined,
    },
    {
      name: "a filtered list is not judged",
      sequence: [create(), profiles([3], { "x-filter": '{"port":80}' })],
      outcome: undefined,
    },
    {
      name: "an item the traffic did not create is not judged",
      sequence: [profiles([3])],
      outcome: undefined,
    },
    {
      name: "a refused create made nothing to judge",
      sequence: [create({}, 400), profiles([3])],
      outcome: undefined,
    },
  ]);
});
