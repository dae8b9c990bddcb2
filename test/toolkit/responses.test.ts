/**
 * src/toolkit/responses.ts: reading answers (the description's error envelope, created ids, header lists, scope
 * sets) and asserting them (refusals, successes, statuses, headers: what is asserted, under which name, and the
 * message a failure carries).
 */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../../src/core/exchange.ts";
import {
  createdId,
  errorFields,
  errorReasons,
  expectDocumentedHeader,
  expectHeader,
  expectRefusal,
  expectSame,
  expectStatus,
  expectSuccess,
  headerList,
  isErrorBody,
  sameScopes,
} from "../../src/toolkit/responses.ts";
import { fakeCase, liveResponse, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();
const refused = liveResponse({
  status: 400,
  json: { errors: [{ reason: "Too short", field: "label" }, { reason: "Bad" }] },
});

describe("reading and asserting answers", () => {
  it("reads the description's error envelope", () => {
    const { t } = fakeCase(spec);
    expect(errorReasons(t, refused)).toEqual(["Too short", "Bad"]);
    expect(errorFields(t, refused)).toEqual(["label"]);
    expect(isErrorBody(t, refused)).toBe(true);
    expect(isErrorBody(t, liveResponse({ status: 400, json: { errors: [] } }))).toBe(false);
    expect(isErrorBody(t, liveResponse({ status: 400, json: { message: "no" } }))).toBe(false);
  });

  it.each([
    ["a 400 naming the field", refused, "label", [true, true]],
    ["a 400 naming another field", refused, "port", [true, false]],
    ["a 200", liveResponse({ status: 200, json: { id: 3 } }), "label", [false]],
  ] as const)("expectRefusal: %s", (_name, response, field, asserted) => {
    const fake = fakeCase(spec);
    expectRefusal(fake.t, "a short label", response, field);
    expect(fake.expectations.map((entry) => entry.ok)).toEqual(asserted);
    expect(fake.expectations[0]?.name).toBe("a short label is refused with 400");
  });

  it.each([
    [200, true],
    [299, true],
    [302, false],
    [500, false],
  ])("expectSuccess on %i is %s", (status, ok) => {
    const fake = fakeCase(spec);
    expect(expectSuccess(fake.t, "it works", liveResponse({ status, json: {} }))).toBe(ok);
  });

  it.each([
    [liveResponse({ status: 200, json: { id: 4 } }), 4],
    [liveResponse({ status: 200, json: { id: "4" } }), undefined],
    [liveResponse({ status: 400, json: { id: 4 } }), undefined],
  ])("createdId %#", (response, id) => {
    expect(createdId(response)).toBe(id);
  });

  it("reads header lists and scope sets", () => {
    expect(headerList(" Authorization, X-Filter ,")).toEqual(["authorization", "x-filter"]);
    expect(sameScopes("a:read_only b:read_write", "b:read_write,a:read_only")).toBe(true);
    expect(sameScopes("a:read_only", "a:read_write")).toBe(false);
  });
});

describe("expectStatus", () => {
  it.each<[number, number, boolean]>([
    [401, 401, true],
    [200, 401, false],
    [299, 299, true],
    [200, 299, false],
  ])("an answer %i, %i expected: holds %s", (status, wanted, holds) => {
    const fake = fakeCase(spec);
    const response = liveResponse({ status });
    expect(expectStatus(fake.t, "it answers", response, wanted, `GET /x answered ${status}`)).toBe(holds);
    expect(fake.expectations).toEqual([
      {
        name: "it answers",
        ok: holds,
        details: { expected: wanted, actual: status, response, message: `GET /x answered ${status}` },
      },
    ]);
  });
});

describe("expectHeader", () => {
  const unknown = (value?: string) => value === "unknown";
  it.each<[string, Record<string, string>, boolean, string]>([
    ["the value accepted", { "x-oauth-scopes": "unknown" }, true, "getProfile: X-OAuth-Scopes is unknown"],
    ["another value", { "x-oauth-scopes": "*" }, false, "getProfile: X-OAuth-Scopes is *"],
    ["no such header", {}, false, "getProfile: X-OAuth-Scopes is missing"],
  ])("%s", (_what, headers, holds, message) => {
    const fake = fakeCase(spec);
    const response = liveResponse({ status: 401, headers });
    const where = { where: "getProfile", expected: "unknown" };
    expect(
      expectHeader(fake.t, "401 carries X-OAuth-Scopes: unknown", response, "X-OAuth-Scopes", unknown, where),
    ).toBe(holds);
    expect(fake.expectations).toEqual([
      {
        name: "401 carries X-OAuth-Scopes: unknown",
        ok: holds,
        details: { message, expected: "unknown", actual: headers["x-oauth-scopes"], response },
      },
    ]);
  });
});

describe("expectDocumentedHeader", () => {
  /** An answer of `operationId` at `status`, carrying `scopes` as X-OAuth-Scopes when given. */
  const answerOf = (operationId: string, status: number, scopes?: string) => ({
    ...liveResponse({ status, json: {}, ...(scopes ? { headers: { "x-oauth-scopes": scopes } } : {}) }),
    exchange: { operationId } as Exchange,
  });
  const own = (value?: string) => value === "*";

  it.each([
    ["documented and right", answerOf("getProfile", 200, "*"), [true], []],
    ["documented and missing", answerOf("getProfile", 200), [false], []],
    [
      "an answer the operation does not document",
      answerOf("getProfile", 418),
      [],
      ["getProfile documents no 418 answer"],
    ],
    ["no operation known: asserted as expectHeader does", answerOf("", 200), [false], []],
  ])("%s", (_name, response, asserted, logged) => {
    const fake = fakeCase(spec);
    expectDocumentedHeader(fake.t, "scopes echoed", response, "X-OAuth-Scopes", own, { where: "here" });
    expect(fake.expectations.map((entry) => entry.ok)).toEqual(asserted);
    expect(fake.logs).toEqual(
      logged.map(
        (why) =>
          `here: X-OAuth-Scopes not judged: ${why} (said once per case: later answers without it are not logged)`,
      ),
    );
  });

  it("says an undocumented header once per case, not once per answer (2,271 lines on a large description)", () => {
    const fake = fakeCase(spec);
    for (const status of [418, 419, 420, 418]) {
      expectDocumentedHeader(fake.t, "scopes echoed", answerOf("getProfile", status), "X-OAuth-Scopes", own, {
        where: `call ${status}`,
      });
    }
    expectDocumentedHeader(fake.t, "accepted", answerOf("getProfile", 418), "X-Accepted-OAuth-Scopes", own, {
      where: "other",
    });
    expect(fake.logs).toHaveLength(2);
    expect(fake.logs[0]).toMatch(/^call 418: X-OAuth-Scopes not judged: getProfile documents no 418 answer/);
    expect(fake.logs[1]).toMatch(/^other: X-Accepted-OAuth-Scopes not judged/);
  });
});

describe("expectSame", () => {
  it.each<[unknown, unknown, boolean]>([
    [443, 443, true],
    ["https", "https", true],
    [80, 443, false],
    ["443", 443, false],
    [undefined, 443, false],
  ])("%j against %j: holds %s", (actual, expected, holds) => {
    const fake = fakeCase(spec);
    expect(expectSame(fake.t, "port is 443", actual, expected)).toBe(holds);
    expect(fake.expectations).toEqual([{ name: "port is 443", ok: holds, details: { expected, actual } }]);
  });
});
