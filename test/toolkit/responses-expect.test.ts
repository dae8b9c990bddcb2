/**
 * expectStatus and expectHeader (src/toolkit/responses.ts): what they assert, under which name, and the message a
 * failure carries. Kept apart from responses.test.ts only because that file arrives on another branch.
 */
import { describe, expect, it } from "vitest";
import type { LiveResponse } from "../../src/runner/http-client.ts";
import type { CaseContext } from "../../src/runner/suite-api.ts";
import { expectHeader, expectStatus } from "../../src/toolkit/responses.ts";

function answer(status: number, headers: Record<string, string> = {}): LiveResponse {
  return { status, headers, text: "", json: undefined, exchange: {} as LiveResponse["exchange"] };
}

/** A case context that records its assertions. */
function recorder() {
  const asserted: { name: string; ok: boolean; details: Record<string, unknown> }[] = [];
  const t = {
    expect: (name: string, ok: boolean, details: Record<string, unknown> = {}) => {
      asserted.push({ name, ok, details });
      return ok;
    },
  } as unknown as CaseContext;
  return { t, asserted };
}

describe("expectStatus", () => {
  it.each<[number, number, boolean]>([
    [401, 401, true],
    [200, 401, false],
    [299, 299, true],
    [200, 299, false],
  ])("an answer %i, %i expected: holds %s", (status, wanted, holds) => {
    const { t, asserted } = recorder();
    const response = answer(status);
    expect(expectStatus(t, "it answers", response, wanted, `GET /x answered ${status}`)).toBe(holds);
    expect(asserted).toEqual([
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
    const { t, asserted } = recorder();
    const response = answer(401, headers);
    const where = { where: "getProfile", expected: "unknown" };
    expect(
      expectHeader(t, "401 carries X-OAuth-Scopes: unknown", response, "X-OAuth-Scopes", unknown, where),
    ).toBe(holds);
    expect(asserted).toEqual([
      {
        name: "401 carries X-OAuth-Scopes: unknown",
        ok: holds,
        details: { message, expected: "unknown", actual: headers["x-oauth-scopes"], response },
      },
    ]);
  });
});
