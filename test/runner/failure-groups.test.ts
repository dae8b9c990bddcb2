import { describe, expect, it } from "vitest";
import type { Exchange } from "../../src/core/exchange.ts";
import { SecretValues } from "../../src/core/redact.ts";
import { failed } from "../../src/core/result.ts";
import { CaseTally } from "../../src/runner/case-tally.ts";
import {
  FailureGroups,
  keptExchangesPerGroup,
  messageShape,
  namedCasesPerGroup,
} from "../../src/runner/failure-groups.ts";

const operations = new Set(["getProfile", "getComputeInstances"]);

describe("message shape", () => {
  it.each([
    ["numbers", "X-RateLimit-Reset 1732 is 5 min in the past", "X-RateLimit-Reset 1745 is 2 h in the past"],
    [
      "releases",
      "X-Spec-Version is 4.175.0, the spec describes 4.176.0",
      "X-Spec-Version is 4.1.9, the spec describes 4.2.0",
    ],
    ["quoted values", 'X-Spec-Version "abc" is not a release', 'X-Spec-Version "4.x" is not a release'],
    [
      "uuids",
      "event 0f8fad5b-d9cb-469f-a165-70867728950e is missing",
      "event 7c9e6679-7425-40de-944b-e07fc1f90ae7 is missing",
    ],
    ["times", "created 2025-03-01T12:00:00Z is not UTC", "created 2024-12-31T23:59:59.123+02:00 is not UTC"],
    ["long ids", "label conform-ab12cd34ef56 is taken", "label conform-99ff00aa11bb is taken"],
    [
      "operations",
      "getProfile 200: X-Spec-Version is 4.175.0",
      "getComputeInstances 404: X-Spec-Version is 4.175.0",
    ],
  ])("%s vary within one shape", (_name, one, other) => {
    expect(messageShape(one, operations)).toBe(messageShape(other, operations));
  });

  it.each([
    ["different headers", "X-Spec-Version is missing", "X-RateLimit-Reset is missing"],
    [
      "different wording",
      "X-RateLimit-Reset 1732 is 5 min in the past",
      "X-RateLimit-Reset 1732 is more than a day ahead",
    ],
    ["an unknown word is not an operation", "getProfiles 200: wrong", "getProfile 200: wrong"],
  ])("%s are different shapes", (_name, one, other) => {
    expect(messageShape(one, operations)).not.toBe(messageShape(other, operations));
  });

  it("shows where values were", () => {
    expect(messageShape('getProfile 200: X-Spec-Version "4.175.0" is 3 s late', operations)).toBe(
      '<operation> <n>: X-Spec-Version "…" is <duration> late',
    );
  });
});

const site = (caseId: string, operationId?: string) => ({ suiteId: "s", caseId, operationId });

describe("failure groups", () => {
  it("groups by check and shape, counts failures, cases and operations, largest first", () => {
    const opened: string[] = [];
    const groups = new FailureGroups((event) => opened.push(event.group.checkId), operations);
    for (let index = 0; index < 10; index += 1)
      groups.assign(
        "rate-limit-headers",
        `X-RateLimit-Reset ${1700 + index} is 5 min in the past`,
        site(`c${index}`, index % 2 ? "getProfile" : "getComputeInstances"),
        true,
      );
    groups.assign("spec-version-header", "X-Spec-Version is missing", site("c0", "getProfile"), true);
    groups.assign("assert:other", "X-RateLimit-Reset 1 is 5 min in the past", site("c0"), false);
    const summary = groups.summary();
    expect(summary.map((group) => [group.checkId, group.failures, group.cases])).toEqual([
      ["rate-limit-headers", 10, 10],
      ["assert:other", 1, 1],
      ["spec-version-header", 1, 1],
    ]);
    expect(opened).toEqual(["rate-limit-headers", "spec-version-header", "assert:other"]);
    const [reset] = summary;
    expect(reset?.example).toBe("X-RateLimit-Reset 1700 is 5 min in the past");
    expect(reset?.exchangesKept).toBe(keptExchangesPerGroup);
    expect(reset?.firstCases).toHaveLength(namedCasesPerGroup);
    expect(reset?.operations).toEqual([
      { operationId: "getComputeInstances", failures: 5 },
      { operationId: "getProfile", failures: 5 },
    ]);
    expect(reset?.operationCount).toBe(2);
  });

  it("keeps the exchanges of the first few failures of a group only", () => {
    const groups = new FailureGroups();
    const kept = Array.from(
      { length: 6 },
      (_, index) => groups.assign("c", "wrong", site(`c${index}`), true).keepExchange,
    );
    expect(kept).toEqual([true, true, true, false, false, false]);
    expect(groups.assign("c", "wrong", site("x"), false).keepExchange).toBe(false);
  });

  it("gives the same id to the same failure in another run", () => {
    const one = new FailureGroups().assign("c", "value 1 is wrong", site("a"), false).groupId;
    const other = new FailureGroups().assign("c", "value 2 is wrong", site("b"), false).groupId;
    expect(one).toBe(other);
    expect(one).toMatch(/^[0-9a-f]{10}$/);
  });
});

describe("case tally grouping", () => {
  const exchange = (id: number) => ({ id, operationId: "getProfile" }) as Exchange;

  it("collapses a group's repeats within a case into one result with a count, and keeps a few exchanges", () => {
    const groups = new FailureGroups();
    const tally = new CaseTally(new SecretValues(), { groups, suiteId: "s", caseId: "flood" });
    for (let id = 1; id <= 500; id += 1)
      tally.add(
        { checkId: "rate-limit-headers", exchangeId: id, outcome: failed(`Reset ${id} is in the past`) },
        exchange(id),
      );
    tally.add(
      { checkId: "spec-version-header", exchangeId: 3, outcome: failed("X-Spec-Version is missing") },
      exchange(3),
    );
    expect(tally.notable.map((result) => [result.checkId, result.exchangeId, result.count])).toEqual([
      ["rate-limit-headers", 1, 500],
      ["spec-version-header", 3, undefined],
    ]);
    expect(tally.notable.every((result) => typeof result.group === "string")).toBe(true);
    expect(tally.exchanges.map((kept) => kept.id)).toEqual([1, 3]);
    expect(groups.summary().map((group) => [group.checkId, group.failures, group.cases])).toEqual([
      ["rate-limit-headers", 500, 1],
      ["spec-version-header", 1, 1],
    ]);
  });

  it("an assertion is one group whatever sample its messages name; its different messages stay apart in a case", () => {
    const groups = new FailureGroups(() => {}, operations);
    const tally = new CaseTally(new SecretValues(), { groups, suiteId: "s", caseId: "versions" });
    const name = "assert:X-Spec-Version is the spec's version";
    for (const message of [
      "getProfile, answered 200: X-Spec-Version is 4.175.0",
      "getProfile without a token, answered 401: X-Spec-Version is 4.175.0",
      "getProfile without a token, answered 401: X-Spec-Version is 4.175.0",
      "an unknown path, answered 404: X-Spec-Version is 4.175.0",
    ])
      tally.add({ checkId: name, exchangeId: 1, outcome: failed(message) }, exchange(1));
    expect(tally.notable.map((result) => result.count ?? 1)).toEqual([1, 2, 1]);
    expect(new Set(tally.notable.map((result) => result.group)).size).toBe(1);
    expect(groups.summary().map((group) => [group.checkId, group.failures, group.cases])).toEqual([
      [name, 4, 1],
    ]);
    // Two assertions are two groups, whatever their messages.
    tally.add(
      {
        checkId: "assert:other",
        exchangeId: 1,
        outcome: failed("getProfile, answered 200: X-Spec-Version is 4.175.0"),
      },
      exchange(1),
    );
    expect(groups.summary()).toHaveLength(2);
  });

  it("a transport error is one group whatever request it happened to", () => {
    const groups = new FailureGroups(() => {}, operations);
    const tooLarge = (url: string) =>
      `GET ${url}: answer too large: application/json, more than 4194304 bytes, above the 4194304-byte cap`;
    const one = groups.idOf("error:RESPONSE_TOO_LARGE", tooLarge("http://127.0.0.1:8/v4/regions?page=1"));
    const other = groups.idOf(
      "error:RESPONSE_TOO_LARGE",
      tooLarge("http://127.0.0.1:8/v4/nodebalancers/7/configs"),
    );
    expect(one.id).toBe(other.id);
    expect(one.shape).toMatch(/^answer too large: application\/json/);
    // A check's message keeps what it says about a request.
    expect(groups.idOf("c", "GET /a: wrong").id).not.toBe(groups.idOf("c", "GET /b/c: wrong").id);
  });

  it.each([
    [
      "a page number",
      "assert:/compute/types page 1 says it is page 1",
      "assert:/compute/types page 14 says it is page 14",
    ],
    ["an item's path", "assert:/compute/types/anim is that item", "assert:/regions/[REDACTED] is that item"],
  ])("an assertion named after %s is one group over every value (its name's shape)", (_name, one, other) => {
    const templateOf = (path: string) =>
      path.startsWith("/compute/types/")
        ? "/compute/types/{typeId}"
        : path.startsWith("/regions/")
          ? "/regions/{regionId}"
          : undefined;
    const groups = new FailureGroups(() => {}, operations, templateOf);
    const first = groups.idOf(one, "wrong");
    const second = groups.idOf(other, "wrong");
    if (one.includes("page")) expect(first.id).toBe(second.id);
    else
      expect(first.checkId).toMatch(
        /^assert:\/(compute\/types\/\{typeId\}|regions\/\{regionId\}) is that item$/,
      );
    // The same name on another list is another assertion.
    expect(groups.idOf(one.replace("/compute/types", "/regions"), "wrong").id).not.toBe(first.id);
  });

  it("an operation's property stays its own group: another operation's is another finding", () => {
    const groups = new FailureGroups(() => {}, operations);
    expect(groups.idOf("assert:property: getProfile answers", "x").id).not.toBe(
      groups.idOf("assert:property: getComputeInstances answers", "x").id,
    );
  });

  it("stops keeping a group's exchanges over cases once it has kept enough", () => {
    const groups = new FailureGroups();
    const kept = Array.from({ length: 5 }, (_, index) => {
      const tally = new CaseTally(new SecretValues(), { groups, suiteId: "s", caseId: `c${index}` });
      tally.add({ checkId: "c", exchangeId: index, outcome: failed("wrong") }, exchange(index));
      return tally.exchanges.length;
    });
    expect(kept).toEqual([1, 1, 1, 0, 0]);
  });
});
