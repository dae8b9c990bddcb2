/**
 * Issue 31: the scope matrix does not assume a 403 comes before body validation. A probe's refusal for the request
 * itself (400, 404) says nothing of the scope, unless the same operation refused another token with 403 (then it
 * judges the scope first, and a 400 to a token that should get 403 is a failure).
 */
import { describe, expect, it } from "vitest";
import type { MintedToken } from "../../src/toolkit/tokens.ts";
import { judgeRow } from "../../suites/conformance/support/auth-scopes.ts";
import { fakeCase, liveResponse, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();
const operation = spec.operations.byId("createNodeBalancer")!;
const readOnly: MintedToken = {
  id: 1,
  token: "t",
  scopes: "nodebalancers:read_only",
  requested: "nodebalancers:read_only",
  expiry: null,
};
const rule = "a read_only token cannot write";

describe("the scope matrix's refused rows", () => {
  it.each<[string, number, boolean, boolean, boolean[]]>([
    ["403: judged, held", 403, false, true, [true]],
    ["400 from a target that validates first: not judged", 400, false, false, []],
    ["404 from a target that looks the id up first: not judged", 404, false, false, []],
    ["400 where the operation refused another token with 403: a failure", 400, true, true, [false]],
    ["200: a failure whatever the order", 200, false, true, [false]],
  ])("%s", (_name, status, scopeFirst, judged, verdicts) => {
    const fake = fakeCase(spec);
    const response = liveResponse({ status, json: {} });
    expect(judgeRow(fake.t, operation, readOnly, false, rule, response, scopeFirst)).toBe(judged);
    expect(fake.expectations.filter((entry) => entry.name === rule).map((entry) => entry.ok)).toEqual(
      verdicts,
    );
  });
});
