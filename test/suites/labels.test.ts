/**
 * Names in reports say what happened: a sample is named by the status that came back, not the one it was meant to
 * get; the base-URL case shows the base URL it judged, also at the root; the scope matrix names a token by the scopes
 * asked for, and what the target granted where that differs. Each suite's case runs here on a fake target.
 */
import { describe, expect, it } from "vitest";
import type { Suite } from "../../src/runner/suite-api.ts";
import auth from "../../suites/conformance/auth.suite.ts";
import headers from "../../suites/conformance/headers.suite.ts";
import versioning from "../../suites/conformance/versioning.suite.ts";
import {
  type Answer,
  type FakeCase,
  fakeCase,
  type SentRequest,
  Skipped,
  specWith,
} from "../helpers/fake-case.ts";

const spec = await specWith();

async function runCase(suite: Suite, caseId: string, fake: FakeCase): Promise<FakeCase> {
  const found = suite.cases.find((entry) => entry.id === caseId);
  if (!found) throw new Error(`${suite.id} has no case ${caseId}`);
  try {
    await found.run(fake.t);
  } catch (error) {
    if (!(error instanceof Skipped)) throw error;
  }
  return fake;
}

const failures = (fake: FakeCase) => fake.expectations.filter((entry) => !entry.ok);
const messages = (fake: FakeCase) => failures(fake).map((entry) => String(entry.details.message ?? ""));

describe("samples are named by the status that came back", () => {
  /** A target that answers 200 with an empty JSON object to everything, without any header. */
  const everything200: Answer = { status: 200, json: {} };

  it.each<[Suite, string]>([
    [headers, "content-type"],
    [versioning, "spec-version"],
  ])("%s: %s", async (suite, caseId) => {
    const fake = await runCase(suite, caseId, fakeCase(spec, everything200));
    const said = messages(fake);
    expect(said.length).toBeGreaterThan(2);
    for (const message of said) {
      expect(message).toMatch(/, answered 200: /);
      expect(message).not.toMatch(/\((?:400|401|404)\)| (?:400|401|404):/);
    }
    expect(said).toContainEqual(
      expect.stringMatching(/^an unknown (?:item under \/[\w/]+|path), answered 200: /),
    );
  });
});

describe("the base-URL case shows the base URL it judged", () => {
  it.each([
    ["at the root", "http://127.0.0.1:1", false, "the base URL http://127.0.0.1:1 has the path /, not …/v4"],
    [
      "with the wrong version",
      "http://127.0.0.1:1/v3/",
      false,
      "the base URL http://127.0.0.1:1/v3/ has the path /v3, not …/v4",
    ],
    ["ending in /v4", "http://127.0.0.1:1/api/v4", true, undefined],
  ])("%s", async (_name, baseUrl, ok, message) => {
    const fake = await runCase(versioning, "major-version", fakeCase(spec, { status: 404 }, { baseUrl }));
    expect(fake.expectations).toHaveLength(1);
    expect(fake.expectations[0]).toMatchObject({ ok, details: { expected: "…/v4", actual: baseUrl } });
    if (message) expect(fake.expectations[0]?.details.message).toBe(message);
  });
});

describe("the scope matrix names a token by the scopes asked for", () => {
  /** Mints every token with the scopes `grant` makes of the ones asked for; every other request answers 200. */
  function target(grant: (asked: string) => string) {
    let minted = 0;
    return (request: SentRequest): Answer => {
      const asked = (request.options.json as { scopes?: unknown } | undefined)?.scopes;
      if (request.method === "POST" && typeof asked === "string") {
        minted += 1;
        return {
          status: 200,
          json: { id: minted, token: `${minted}`.padStart(64, "t"), scopes: grant(asked), expiry: null },
        };
      }
      return { status: 200, json: {} };
    };
  }

  it("a target that grants * whatever was asked: each refusal names the token asked for and what was granted", async () => {
    const fake = await runCase(
      auth,
      "scope-matrix",
      fakeCase(
        spec,
        target(() => "*"),
      ),
    );
    const refusals = failures(fake).filter((entry) => entry.details.expected === 403);
    expect(refusals.length).toBeGreaterThan(0);
    for (const entry of refusals) {
      expect(entry.details.message).toMatch(
        / with a token asked for "[a-z_]+:read_(?:only|write)" \(granted "\*"\) answered 200;/,
      );
    }
  });

  it("a target that grants what was asked: the token is named by those scopes", async () => {
    const fake = await runCase(
      auth,
      "scope-matrix",
      fakeCase(
        spec,
        target((asked) => asked),
      ),
    );
    const refusals = failures(fake).filter((entry) => entry.details.expected === 403);
    expect(refusals.length).toBeGreaterThan(0);
    for (const entry of refusals) {
      expect(entry.details.message).toMatch(/ with a "[a-z_]+:read_(?:only|write)" token answered 200;/);
    }
  });
});
