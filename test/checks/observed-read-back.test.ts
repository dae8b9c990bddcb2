import { describe, expect, it } from "vitest";
import { agrees, observedReadBack } from "../../src/checks/observed-read-back.ts";
import { runSequenceCases, seen } from "../helpers/observed.ts";

const profilePath = "/nodebalancers/1/configs/7";
const profile = (fields: object) => ({ id: 7, port: 80, protocol: "http", ssl_key: null, ...fields });
const update = (sent: object, answered: object) =>
  seen({
    operationId: "updateNodeBalancerConfig",
    method: "PUT",
    path: profilePath,
    requestBody: sent,
    json: profile(answered),
  });
const read = (fields: object, status = 200) =>
  seen({ operationId: "getNodeBalancerConfig", path: profilePath, status, json: profile(fields) });
const toHttps = { protocol: "https", port: 443, ssl_key: "[REDACTED]" };
const createBalancer = (sent: object, answered: object) =>
  seen({
    operationId: "createNodeBalancer",
    method: "POST",
    path: "/nodebalancers",
    requestBody: sent,
    json: { id: 12, label: "lb-one", tags: [], ...answered },
  });
const readBalancer = (fields: object) =>
  seen({
    operationId: "getNodeBalancer",
    path: "/nodebalancers/12",
    json: { id: 12, label: "lb-one", ...fields },
  });

describe("observed-read-back", () => {
  runSequenceCases(observedReadBack, [
    {
      name: "an update answered with what was written passes",
      sequence: [update(toHttps, { protocol: "https", port: 443, ssl_key: "<REDACTED>" })],
      outcome: { status: "passed" },
    },
    {
      name: "an update whose answer still says http fails",
      sequence: [update(toHttps, { protocol: "http", port: 443, ssl_key: "<REDACTED>" })],
      outcome: {
        status: "failed",
        message: "the write's answer says protocol is not what the request wrote",
        expected: { protocol: "https" },
        actual: { protocol: "http" },
      },
    },
    {
      name: "the next read agreeing passes",
      sequence: [update(toHttps, toHttps), read({ protocol: "https", port: 443 })],
      outcome: { status: "passed" },
    },
    {
      name: "the next read still saying http fails",
      sequence: [update(toHttps, toHttps), read({ protocol: "http", port: 443 })],
      outcome: {
        status: "failed",
        message: "a read after PUT /v4/nodebalancers/1/configs/7 says protocol is not what was written",
      },
    },
    {
      name: "only the next read is judged: a later change is not held against the write",
      sequence: [update(toHttps, toHttps), read(toHttps), read({ protocol: "http" })],
      outcome: undefined,
    },
    {
      name: "a write at the item between (a rebuild) makes the written unknown",
      sequence: [
        update(toHttps, toHttps),
        seen({
          operationId: "rebuildNodeBalancerConfig",
          method: "POST",
          path: `${profilePath}/rebuild`,
          requestBody: { protocol: "http" },
          json: profile({}),
        }),
        read({ protocol: "http" }),
      ],
      outcome: undefined,
    },
    {
      name: "a read of another item is not judged against this write",
      sequence: [
        update(toHttps, toHttps),
        seen({ operationId: "getNodeBalancerConfig", path: "/nodebalancers/1/configs/8", json: profile({}) }),
      ],
      outcome: undefined,
    },
    {
      name: "a create read back with its label passes (the item from the answer's id)",
      sequence: [
        createBalancer({ label: "lb-one", tags: ["b", "a"] }, { tags: ["a", "b"] }),
        readBalancer({ tags: ["a", "b"] }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "a create whose later read lost the label fails",
      sequence: [createBalancer({ label: "lb-one" }, {}), readBalancer({ label: "balancer12" })],
      outcome: { status: "failed", expected: { label: "lb-one" }, actual: { label: "balancer12" } },
    },
    {
      name: "a time written (a token's expiry) is the target's to round or cap: not judged",
      sequence: [
        seen({
          operationId: "createPersonalAccessToken",
          method: "POST",
          path: "/profile/tokens",
          requestBody: { expiry: "2024-07-09T13:29:58" },
          json: { id: 5, expiry: "2018-01-02T03:04:05" },
        }),
      ],
      outcome: undefined,
    },
    {
      name: "a refused write is not judged",
      sequence: [
        seen({
          operationId: "updateNodeBalancerConfig",
          method: "PUT",
          path: profilePath,
          status: 400,
          requestBody: { port: 0 },
          json: { errors: [{ reason: "bad", field: "port" }] },
        }),
      ],
      outcome: undefined,
    },
    {
      name: "fields the answer never shows (root_pass) and nulls written are not judged",
      sequence: [
        seen({
          operationId: "createComputeInstance",
          method: "POST",
          path: "/compute/instances",
          requestBody: { root_pass: "[REDACTED]", booted: false, tags: null },
          json: { id: 3, tags: [] },
        }),
      ],
      outcome: undefined,
    },
  ]);

  it.each([
    [["a", "b"], ["b", "a"], true],
    [["a"], ["a", "b"], false],
    [{ up: 1 }, { up: 1, down: 0 }, true],
    [{ up: 1 }, { up: 2 }, false],
    [3, 3, true],
    ["3", 3, false],
  ])("agrees(%j, %j) is %s", (written, answered, expected) => {
    expect(agrees(written, answered)).toBe(expected);
  });
});
