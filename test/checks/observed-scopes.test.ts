import { describe } from "vitest";
import { observedScopes } from "../../src/checks/observed-scopes.ts";
import { runSequenceCases, seen } from "../helpers/observed.ts";

const profile = (headers: Record<string, string>, status = 200) =>
  seen({ operationId: "getProfile", path: "/profile", json: {}, headers, status });
// getProfile takes any token (`*`); updateProfile needs account:read_write.
const update = (accepted: string) =>
  seen({
    operationId: "updateProfile",
    method: "PUT",
    path: "/profile",
    json: {},
    headers: { "x-accepted-oauth-scopes": accepted },
  });

describe("observed-scopes", () => {
  runSequenceCases(observedScopes, [
    {
      name: "the same scopes for one token pass",
      sequence: [profile({ "x-oauth-scopes": "* " }), profile({ "x-oauth-scopes": "*" })],
      outcome: { status: "passed" },
      caller: "token-a",
    },
    {
      name: "scopes changing for one token fail",
      sequence: [profile({ "x-oauth-scopes": "*" }), profile({ "x-oauth-scopes": "linodes:read_only" })],
      outcome: { status: "failed", message: "X-OAuth-Scopes changed between two answers to the same token" },
      caller: "token-a",
    },
    {
      name: "scopes changing with the caller unknown are not judged",
      sequence: [profile({ "x-oauth-scopes": "*" }), profile({ "x-oauth-scopes": "linodes:read_only" })],
      outcome: undefined,
    },
    {
      name: "a 401 says nothing of the token's scopes",
      sequence: [profile({ "x-oauth-scopes": "*" }), profile({ "x-oauth-scopes": "" }, 401)],
      outcome: undefined,
      caller: "token-a",
    },
    {
      name: "X-Accepted-OAuth-Scopes naming the scope needed passes",
      sequence: [update("account:read_write")],
      outcome: { status: "passed" },
    },
    {
      name: "X-Accepted-OAuth-Scopes without the scope needed fails",
      sequence: [update("nope")],
      outcome: {
        status: "failed",
        message: "X-Accepted-OAuth-Scopes does not name the scope updateProfile needs",
      },
    },
  ]);
});
