/**
 * The auth suite through the real runner: green on the clean reference (every case runs, every token and client it
 * made is revoked at the end), red against each auth fault, naming the assertion that caught it.
 */
import { Agent, request } from "undici";
import { describe, expect, it } from "vitest";
import { defaultUser } from "../../src/reference/server.ts";
import type { LoginDriver } from "../../src/runner/suite-api.ts";
import { parseLoginForm } from "../../src/toolkit/login.ts";
import { exchangesTo, runSuites } from "../helpers/run-suites.ts";
import { cases, expectCaught, expectGreen, faultsClaimedBy } from "./protocol-faults.ts";

const suites = ["auth"];

describe("auth suite", () => {
  it("passes on the clean reference, runs every case and revokes what it made", async () => {
    const run = await runSuites({ suites });
    expectGreen(run);
    expect(cases(run).map((event) => event.caseId)).toEqual([
      "no-token",
      "unknown-token",
      "malformed-authorization",
      "expired-token",
      "public-operations",
      "scope-matrix",
      "oauth-clients",
      "oauth-client-read-back",
      "code-exchange-urlencoded",
      "code-reuse-refused",
      "code-exchange-multipart",
      "wrong-secret-refused",
      "refresh",
      "public-flow",
    ]);
    expect(cases(run).every((event) => event.status === "passed")).toBe(true);
    // 11 matrix tokens, 1 expiring token, 2 OAuth clients.
    expect(run.finished.cleanup.deleted).toBe(14);
    // Nothing it handled is printed: the password, tokens (64 hex), codes (40 hex), client secrets.
    const recorded = JSON.stringify(run.events);
    expect(recorded).not.toContain(defaultUser.password);
    expect(recorded.match(/(?<![0-9a-f])[0-9a-f]{40,}(?![0-9a-f])/g) ?? []).toEqual([]);
    expect(recorded).toContain("[REDACTED]");
  });

  it("a configured login becomes the embedded server's user, and is never recorded", async () => {
    const run = await runSuites({
      suites,
      suiteOptions: { login: { username: "someone", password: "Not-the-password-1" } },
    });
    // The embedded server takes a configured login as its seeded user, so the flows still pass.
    expectGreen(run);
    expect(JSON.stringify(run.events)).not.toContain("Not-the-password-1");
  });

  it("skips the OAuth cases, saying why, when the run knows no login", async () => {
    const run = await runSuites({ suites, suiteOptions: { login: { username: 7 } } });
    const oauth = cases(run).filter((event) => /code|refresh|public-flow|secret/.test(event.caseId));
    expect(oauth.length).toBeGreaterThan(0);
    for (const event of oauth) {
      expect(event.status).toBe("skipped");
      expect(event.skipReason).toMatch(
        /no login credentials|from the earlier case "code-exchange-urlencoded"/,
      );
    }
  });

  it("logs in through the hook loginDriver a program hands the run, not through its own form driver", async () => {
    // A driver of the test's own, outside the runner (its requests are not recorded): the embedded server's
    // certificate is made for the run, and this is loopback only.
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    const types: string[] = [];
    const loginDriver: LoginDriver = async ({ authorizeUrl, username, password }) => {
      types.push(new URL(authorizeUrl).searchParams.get("response_type") ?? "");
      const page = await request(authorizeUrl, { dispatcher });
      const form = parseLoginForm(await page.body.text())!;
      const fields = form.fields.map(([name, value]): [string, string] => [
        name,
        name === form.usernameField ? username : name === form.passwordField ? password : value,
      ]);
      const action = new URL(form.action, authorizeUrl);
      const answer = await request(action, {
        method: "POST",
        dispatcher,
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      await answer.body.dump();
      return new URL(String(answer.headers.location), action).toString();
    };
    try {
      const run = await runSuites({ suites }, { loginDriver });
      expectGreen(run);
      expect(types).toEqual(["code", "code", "code", "token"]);
      const formPosts = exchangesTo(run, "POST", "/oauth/authorize");
      expect(formPosts).toEqual([]);
    } finally {
      await dispatcher.close();
    }
  });

  it("a secret shown again on a later read fails the read-back case, and is never recorded", async () => {
    const run = await expectCaught(suites, "client-secret-shown");
    const readBack = cases(run).find((event) => event.caseId === "oauth-client-read-back");
    expect(readBack?.status).toBe("failed");
    const recorded = JSON.stringify(run.events);
    expect(recorded.match(/(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/g) ?? []).toEqual([]);
    expect(recorded).toContain("the secret in full (withheld here)");
  });

  it("claims the auth faults", () => {
    expect(faultsClaimedBy("auth").sort()).toEqual([
      "accepted-scopes-header-missing",
      "client-secret-shown",
      "expired-token-accepted",
      "expires-in-wrong",
      "no-token-answers-403",
      "public-client-refresh-token",
      "read-only-token-writes",
      "refresh-token-reusable",
    ]);
  });

  it.concurrent.each(faultsClaimedBy("auth"))("catches %s", async (faultId) => {
    await expectCaught(suites, faultId);
  });
});
