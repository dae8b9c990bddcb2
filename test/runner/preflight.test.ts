/**
 * The preflight: the description's public list read at the base URL decides whether the target answers like this
 * API. A table of answers judged, the request it makes (under renamed paths too), and whole runs against tiny
 * targets started here that answer something else (exit 2) or this API with defects (the suites judge those).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConfigDefaults } from "../../src/runner/config.ts";
import {
  checkToken,
  type PreflightAnswer,
  preflight,
  preflightList,
  preflightProblem,
} from "../../src/runner/preflight.ts";
import { runConformance } from "../../src/runner/run.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { specWith } from "../helpers/fake-case.ts";

const bundled = await specWith();
const renamed = await specWith(["/regions", "/locations"]);
const json = "application/json";

describe("preflightProblem", () => {
  it.each<[string, PreflightAnswer, string | undefined]>([
    [
      "a list",
      { status: 200, contentType: json, text: '{"data":[],"page":1,"pages":1,"results":0}' },
      undefined,
    ],
    [
      "a list lacking results (a defect the suites judge)",
      { status: 200, contentType: json, text: '{"data":[{"id":"r1"}]}' },
      undefined,
    ],
    [
      "a 429 with the error body",
      { status: 429, contentType: json, text: '{"errors":[{"reason":"Too many requests"}]}' },
      undefined,
    ],
    [
      "a 500 with the error body",
      { status: 500, contentType: json, text: '{"errors":[{"reason":"boom"}]}' },
      undefined,
    ],
    [
      "a 404, even with the error body",
      { status: 404, contentType: json, text: '{"errors":[{"reason":"Not found"}]}' },
      "the described path is not there",
    ],
    [
      "an HTML page",
      { status: 200, contentType: "text/html", text: "<html>welcome</html>" },
      "the body is not JSON",
    ],
    ["an empty 200", { status: 200, contentType: undefined, text: "" }, "the body is not JSON"],
    [
      "a JSON object that is no list",
      { status: 200, contentType: json, text: '{"name":"other service"}' },
      "the body is not a list (no data array)",
    ],
    [
      "a JSON array",
      { status: 200, contentType: json, text: "[]" },
      "the body is not a list (no data array)",
    ],
    [
      "a 401 of another API",
      { status: 401, contentType: json, text: '{"message":"unauthorized"}' },
      "a 401 without the description's error body (no errors array)",
    ],
    ["a plain-text 500", { status: 500, contentType: "text/plain", text: "boom" }, "the body is not JSON"],
  ])("%s", (_name, answer, problem) => {
    expect(preflightProblem(bundled, answer)).toBe(problem);
  });
});

describe("preflight", () => {
  it.each<[string, ApiSpec, string]>([
    ["the bundled description", bundled, "http://h/v4/regions"],
    ["a description with renamed paths", renamed, "http://h/v4/locations"],
  ])("under %s reads the first public list without path parameters", async (_name, spec, url) => {
    expect(preflightList(spec)?.security.public).toBe(true);
    const asked: string[] = [];
    const get = async (at: string) => {
      asked.push(at);
      return { status: 200, contentType: json, text: '{"data":[]}' };
    };
    await preflight(spec, "http://h/v4/", { get });
    expect(asked).toEqual([url]);
  });

  it("says what it tried and what came back, and how to act", async () => {
    const get = async () => ({ status: 404, contentType: "text/html", text: "<h1>Not\n  Found</h1>" });
    await expect(preflight(bundled, "http://h/v3", { get })).rejects.toMatchObject({
      code: "TARGET_NOT_THIS_API",
      message:
        'target http://h/v3 does not answer like this API: GET http://h/v3/regions (getRegions, a public list) answered 404 text/html, "<h1>Not Found</h1>": the described path is not there; check --base-url (the description\'s paths follow a base URL such as …/v4)',
    });
  });
});

describe("checkToken", () => {
  it.each<[string, number, RegExp | undefined]>([
    [
      "a token the target refuses (401) stops the run",
      401,
      /the target refused the token: GET http:\/\/h\/v4\/profile \(getProfile\) answered 401/,
    ],
    ["a token with fewer scopes (403) is the suites' to judge", 403, undefined],
    ["a token the target takes", 200, undefined],
  ])("%s", async (_name, status, refused) => {
    const asked: [string, string | undefined][] = [];
    const get = async (url: string, token?: string) => {
      asked.push([url, token]);
      return { status, contentType: json, text: '{"errors":[{"reason":"Invalid Token"}]}' };
    };
    const checking = checkToken(bundled, "http://h/v4", "secret-token-1234", { get });
    if (refused) {
      await expect(checking).rejects.toMatchObject({
        code: "TOKEN_REFUSED",
        message: expect.stringMatching(refused),
      });
      await expect(checking).rejects.not.toMatchObject({
        message: expect.stringContaining("secret-token-1234"),
      });
    } else await expect(checking).resolves.toBeUndefined();
    expect(asked).toEqual([["http://h/v4/profile", "secret-token-1234"]]);
  });

  it("no token: nothing sent, a warning naming CONFORM_TOKEN for the run to show", async () => {
    const get = async () => {
      throw new Error("nothing should be sent");
    };
    expect(await checkToken(bundled, "http://h/v4", undefined, { get })).toMatch(
      /^no token for http:\/\/h\/v4: cases that need one will be refused \(401\); set CONFORM_TOKEN/,
    );
  });
});

describe("a run against a target that is not this API (exit 2) and one that is, with defects", () => {
  let server: Server;
  let origin = "";
  beforeAll(async () => {
    // /v4: this API's list, without `results`; /html/v4: a web page; /other/v4: another service's JSON; else 404.
    server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://x").pathname;
      if (path === "/v4/regions") {
        response.writeHead(200, { "content-type": json });
        response.end(JSON.stringify({ data: [{ id: "r1" }], page: 1, pages: 1 }));
      } else if (path.startsWith("/html/")) {
        response.writeHead(200, { "content-type": "text/html" });
        response.end("<html><body>Welcome</body></html>");
      } else if (path.startsWith("/other/")) {
        response.writeHead(200, { "content-type": json });
        response.end(JSON.stringify({ status: "ok" }));
      } else {
        response.writeHead(404, { "content-type": json });
        response.end(JSON.stringify({ errors: [{ reason: "Not found" }] }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const run = (baseUrl: string) =>
    runConformance(
      { ...runConfigDefaults, baseUrl, suites: ["catalogue"], reporters: [], seed: 1 },
      {
        runId: "20261123T000000Z-pre",
        listeners: [],
        signal: new AbortController().signal,
        toolVersion: "test",
      },
    );

  it.each([
    [
      "a wrong base path",
      "/v3",
      /GET http:\/\/127\.0\.0\.1:\d+\/v3\/regions .*answered 404.*the described path is not there/,
    ],
    [
      "a web page",
      "/html/v4",
      /answered 200 text\/html, "<html><body>Welcome<\/body><\/html>": the body is not JSON/,
    ],
    ["another service's JSON", "/other/v4", /the body is not a list \(no data array\)/],
  ])("%s", async (_name, path, message) => {
    const error = await run(`${origin}${path}`).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: "TARGET_NOT_THIS_API" });
    expect((error as Error).message).toMatch(message);
  });

  it("lets this API with defects through to the suites, which fail it (exit 1)", async () => {
    const finished = await run(`${origin}/v4`);
    expect(finished.exitCode).toBe(1);
  });
});
