import { describe, expect, it } from "vitest";
import { observedReachesState, reachBoundMs } from "../../src/checks/observed-reaches-state.ts";
import type { AnsweredExchange } from "../../src/checks/types.ts";
import { lastVerdict, seen, spec } from "../helpers/observed.ts";

const at = (exchange: AnsweredExchange, ms: number): AnsweredExchange => ({
  ...exchange,
  timings: { ...exchange.timings, startedAt: ms },
});
const boot = (ms = 0) =>
  at(
    seen({ operationId: "bootComputeInstance", method: "POST", path: "/compute/instances/3/boot", json: {} }),
    ms,
  );
const poll = (status: string, ms = 1000) =>
  at(seen({ operationId: "getComputeInstance", path: "/compute/instances/3", json: { id: 3, status } }), ms);
const create = (requestBody: object) =>
  at(
    seen({
      operationId: "createComputeInstance",
      method: "POST",
      path: "/compute/instances",
      requestBody,
      json: { id: 3, status: "provisioning" },
    }),
    0,
  );
const shutdown = () =>
  seen({
    operationId: "shutdownComputeInstance",
    method: "POST",
    path: "/compute/instances/3/shutdown",
    json: {},
  });

const createNode = () =>
  seen({
    operationId: "createNodeBalancerConfigNode",
    method: "POST",
    path: "/nodebalancers/1/configs/7/nodes",
    requestBody: {},
    json: { id: 4, status: "DOWN" },
  });
const readNode = () =>
  seen({
    operationId: "getNodeBalancerConfigNode",
    path: "/nodebalancers/1/configs/7/nodes/4",
    json: { id: 4, status: "DOWN" },
  });

/** The end hook's findings after a sequence. */
function atEnd(sequence: readonly AnsweredExchange[]) {
  const state = observedReachesState.state!();
  for (const exchange of sequence) {
    const operation = spec.operations.byId(exchange.operationId!);
    const startedAt = exchange.timings.startedAt;
    observedReachesState.check(
      { spec, operation, sentAt: startedAt, receivedAt: startedAt + 1 },
      exchange,
      state,
    );
  }
  return observedReachesState.end!(state).map((finding) => finding.outcome);
}

describe("observed-reaches-state", () => {
  // Only the end hook fails (below): these rows are what a read says on the way.
  it.each([
    {
      name: "a booted instance polled until running passes",
      sequence: [boot(), poll("booting"), poll("running")],
      outcome: { status: "passed" },
    },
    {
      name: "a poll on the way is not judged yet",
      sequence: [boot(), poll("booting")],
      outcome: undefined,
    },
    {
      name: "a create (booted by default) polled until running passes",
      sequence: [create({}), poll("running")],
      outcome: { status: "passed" },
    },
    {
      name: "a create with booted false is not watched",
      sequence: [create({ booted: false }), poll("running")],
      outcome: undefined,
    },
    {
      name: "a read with no boot before it is not its business",
      sequence: [poll("running")],
      outcome: undefined,
    },
    {
      name: "a shutdown after the boot ends the watch",
      sequence: [boot(), shutdown(), poll("running")],
      outcome: undefined,
    },
    {
      name: "a poll past the bound is not failed on the way: the end judges",
      sequence: [boot(), poll("booting", reachBoundMs + 5000)],
      outcome: undefined,
    },
    {
      name: "a read of an item never booted is not watched",
      sequence: [poll("offline")],
      outcome: undefined,
    },
  ])("$name", ({ sequence, outcome }) => {
    expect(lastVerdict(observedReachesState, sequence)).toMatchObject(outcome ?? {});
    if (outcome === undefined) expect(lastVerdict(observedReachesState, sequence)).toBeUndefined();
  });

  it.each([
    [
      "polled past the bound still booting fails",
      [boot(), poll("booting", 1000), poll("booting", reachBoundMs + 5000)],
      "failed",
    ],
    [
      "polling stopped before the bound is skipped with the reason",
      [boot(), poll("booting", 1000), poll("booting", 2000)],
      "skipped",
    ],
    [
      "a create read back once (a run's body case) is no polling: nothing to judge",
      [create({}), poll("provisioning")],
      undefined,
    ],
    ["reached running leaves nothing open", [boot(), poll("running")], undefined],
    ["a boot never polled leaves nothing to judge", [boot()], undefined],
    [
      "a create answered in a state not on the way to running (a node's DOWN) is not watched",
      [createNode(), readNode(), readNode()],
      undefined,
    ],
  ] as const)("at the end: %s", (_name, sequence, status) => {
    const [outcome, more] = atEnd(sequence);
    expect(more).toBeUndefined();
    expect(outcome?.status).toBe(status);
  });

  it("says how long it polled and what the item last said", () => {
    expect(atEnd([boot(), poll("booting", 1000), poll("booting", reachBoundMs + 5000)])).toEqual([
      {
        status: "failed",
        message:
          "after POST /v4/compute/instances/3/boot the item was still not running when last read, 305 s later",
        expected: "running within 300 s",
        actual: "booting",
      },
    ]);
    expect(atEnd([boot(), poll("booting", 10_000), poll("booting", 20_000)])).toEqual([
      {
        status: "skipped",
        reason:
          "after POST /v4/compute/instances/3/boot the traffic stopped reading the item 20 s later (last: booting), before the bound of 300 s",
      },
    ]);
  });
});
