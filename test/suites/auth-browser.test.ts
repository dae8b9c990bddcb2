/**
 * The auth suite's OAuth flows with the login page driven in headless Chromium, as a person would: the browser
 * opens the authorization URL, fills in the username and password by their labels, clicks "Log in" and lands on
 * the client's redirect URI; everything else is the suite's own work through the runner (creating the clients,
 * exchanging the code urlencoded and multipart, refresh, the refusals, using the tokens on the API).
 *
 * Why this shape: the suite's login step is a seam (the hook `loginDriver`, handed to the run as `hooks`; see
 * src/toolkit/login.ts). The default driver submits the page's form over HTTP; this test plugs in a browser
 * instead, so the suite's private flow is proven end to end against what a browser really submits (hidden
 * inputs, labels, the redirect it follows), not against the suite's own reading of the form.
 * The clients' redirect URI is a loopback server of the test's (`suiteOptions.oauth.redirectUri`), so the browser
 * lands somewhere real and never leaves 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoginDriver } from "../../src/index.ts";
import { launchChromium } from "../helpers/chromium.ts";
import { exchangesTo, runSuites } from "../helpers/run-suites.ts";
import { cases, expectGreen } from "./protocol-faults.ts";

describe("the auth suite with the login page in headless Chromium", () => {
  // The application's callback: where the login server sends the browser back.
  let callback: Server;
  let redirectUri = "";
  beforeAll(async () => {
    callback = createServer((_request, response) => response.end("landed"));
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  });
  afterAll(async () => {
    callback.closeAllConnections();
    await new Promise((resolve) => callback.close(resolve));
  });

  it("runs the private flow end to end (and the public one) with a browser logging in", async () => {
    const browser = await launchChromium();
    const landings: { responseType: string; landed: string }[] = [];
    const inBrowser: LoginDriver = async ({ authorizeUrl, redirectUri: landing, username, password }) => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      try {
        const page = await context.newPage();
        await page.goto(authorizeUrl);
        await page.getByLabel("Username").fill(username);
        await page.getByLabel("Password").fill(password);
        await Promise.all([
          page.waitForURL(`${landing}**`),
          page.getByRole("button", { name: "Log in" }).click(),
        ]);
        expect(await page.textContent("body")).toBe("landed");
        landings.push({
          responseType: new URL(authorizeUrl).searchParams.get("response_type") ?? "",
          landed: page.url(),
        });
        return page.url();
      } finally {
        await context.close();
      }
    };
    try {
      const run = await runSuites(
        { suites: ["auth"], suiteOptions: { oauth: { redirectUri } } },
        { loginDriver: inBrowser },
      );
      expectGreen(run);
      const oauthCases = cases(run).filter((event) =>
        [
          "code-exchange-urlencoded",
          "code-exchange-multipart",
          "wrong-secret-refused",
          "refresh",
          "public-flow",
        ].includes(event.caseId),
      );
      expect(oauthCases.map((event) => [event.caseId, event.status])).toEqual([
        ["code-exchange-urlencoded", "passed"],
        ["code-exchange-multipart", "passed"],
        ["wrong-secret-refused", "passed"],
        ["refresh", "passed"],
        ["public-flow", "passed"],
      ]);
      // Every login went through the browser: three codes for the private client, one token for the public one.
      expect(landings.map((entry) => entry.responseType)).toEqual(["code", "code", "code", "token"]);
      for (const { responseType, landed } of landings) {
        const url = new URL(landed);
        expect(`${url.origin}${url.pathname}`).toBe(redirectUri);
        if (responseType === "code") expect(url.searchParams.get("code")).toBeTruthy();
        else expect(new URLSearchParams(url.hash.slice(1)).get("access_token")).toBeTruthy();
      }
      // The HTTP driver was not used: the login server saw no form POST from the runner's client.
      const posts = exchangesTo(run, "POST", "/oauth/authorize");
      expect(posts).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
