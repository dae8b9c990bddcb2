import { describe } from "vitest";
import { tokenLifetime } from "../../src/checks/token-lifetime.ts";
import { runSequenceCases, seen } from "../helpers/observed.ts";

const tokens = (expiresIn: unknown) =>
  seen({
    operationId: "createOAuthToken",
    method: "POST",
    path: "/oauth/token",
    json: { access_token: "a".repeat(64), token_type: "bearer", scope: "*", expires_in: expiresIn },
  });
const redirect = (location: string) =>
  seen({
    operationId: "postOAuthAuthorize",
    method: "POST",
    path: "/oauth/authorize",
    status: 302,
    headers: { location },
  });

describe("token-lifetime", () => {
  runSequenceCases(tokenLifetime, [
    { name: "a token answer of 7200 s passes", sequence: [tokens(7200)], outcome: { status: "passed" } },
    {
      name: "a token answer of 3600 s fails",
      sequence: [tokens(3600)],
      outcome: {
        status: "failed",
        message: "the token answer gives expires_in 3600, not 7200",
        actual: 3600,
      },
    },
    {
      name: "the implicit flow's fragment of 7200 s passes",
      sequence: [redirect("https://app.example/cb#access_token=abc&token_type=bearer&expires_in=7200")],
      outcome: { status: "passed" },
    },
    {
      name: "the implicit flow's fragment of 3600 s fails",
      sequence: [redirect("https://app.example/cb#access_token=abc&token_type=bearer&expires_in=3600")],
      outcome: { status: "failed", message: "the redirect's fragment gives expires_in 3600, not 7200" },
    },
    {
      name: "a code in the query is no token: not its business",
      sequence: [redirect("https://app.example/cb?code=1234&state=x")],
      outcome: undefined,
    },
    {
      name: "an answer without a token is not its business",
      sequence: [seen({ operationId: "getRegions", path: "/regions", json: { data: [] } })],
      outcome: undefined,
    },
  ]);
});
