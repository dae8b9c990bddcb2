import { describe } from "vitest";
import { observedCounts } from "../../src/checks/observed-counts.ts";
import { page, runSequenceCases, seen } from "../helpers/observed.ts";

const profile = (up: number, down: number) =>
  seen({
    operationId: "getNodeBalancerConfig",
    path: "/nodebalancers/1/configs/7",
    json: { id: 7, port: 80, nodes_status: { up, down } },
  });
const nodes = (...statuses: string[]) =>
  seen({
    operationId: "getNodeBalancerConfigNodes",
    path: "/nodebalancers/1/configs/7/nodes",
    json: page(statuses.map((status, index) => ({ id: index + 1, status }))),
  });
const addNode = () =>
  seen({
    operationId: "createNodeBalancerConfigNode",
    method: "POST",
    path: "/nodebalancers/1/configs/7/nodes",
    requestBody: {},
    json: { id: 3, status: "Unknown" },
  });

describe("observed-counts", () => {
  runSequenceCases(observedCounts, [
    {
      name: "up 0, down 2 beside two DOWN nodes passes",
      sequence: [profile(0, 2), nodes("DOWN", "DOWN")],
      outcome: { status: "passed" },
    },
    {
      name: "the list first, then the profile, passes",
      sequence: [nodes("UP", "Unknown"), profile(1, 1)],
      outcome: { status: "passed" },
    },
    {
      name: "a count of nodes other than the list's fails",
      sequence: [profile(0, 3), nodes("DOWN", "DOWN")],
      outcome: { status: "failed", message: "nodes_status counts 3 nodes, the list under it holds 2" },
    },
    {
      name: "up disagreeing once is skipped: a health check may have run between",
      sequence: [profile(2, 0), nodes("DOWN", "DOWN")],
      outcome: { status: "skipped" },
    },
    {
      name: "up disagreeing with the list while the reads around it agree fails (swapped counts)",
      sequence: [profile(2, 0), nodes("DOWN", "DOWN"), profile(2, 0)],
      outcome: {
        status: "failed",
        message: "nodes_status says 2 up, the nodes listed with it say 0",
        expected: { listed: 2, up: 0 },
        actual: { up: 2, down: 0 },
      },
    },
    {
      name: "a health change between, the later read agreeing with the list, passes",
      sequence: [profile(0, 2), nodes("UP", "UP"), profile(2, 0)],
      outcome: { status: "passed" },
    },
    {
      name: "a write between the two is not judged",
      sequence: [profile(0, 2), addNode(), nodes("DOWN", "DOWN", "Unknown")],
      outcome: undefined,
    },
    { name: "a profile read alone is not judged", sequence: [profile(0, 2)], outcome: undefined },
    {
      name: "a filtered list is not the whole node set",
      sequence: [
        profile(0, 3),
        seen({
          operationId: "getNodeBalancerConfigNodes",
          path: "/nodebalancers/1/configs/7/nodes",
          requestHeaders: { "x-filter": '{"label":"a"}' },
          json: page([{ id: 1, status: "DOWN" }]),
        }),
      ],
      outcome: undefined,
    },
  ]);
});
