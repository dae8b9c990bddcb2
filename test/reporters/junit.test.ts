import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import type { RunEvent, RunFinished } from "../../src/core/events.ts";
import { createJunitReporter, junitReportFile } from "../../src/reporters/junit.ts";
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { crashedRun, interruptedRun } from "../fixtures/events/interrupted.ts";
import { failingRun, hostileLabel, repeatedFailureRun } from "../fixtures/events/with-failures.ts";
import { feed, fileOptions } from "./helpers.ts";

const xsdPath = join(import.meta.dirname, "../fixtures/junit/junit.xsd");

async function junit(events: RunEvent[]): Promise<string> {
  const options = await fileOptions();
  await feed(createJunitReporter(options), events);
  return readFile(join(options.outputDir, junitReportFile), "utf8");
}

async function validateAgainstXsd(xml: string): Promise<void> {
  const result = await validateXML({
    xml: { fileName: "junit.xml", contents: xml },
    schema: { fileName: "junit.xsd", contents: await readFile(xsdPath, "utf8") },
  });
  expect(result.errors.map((error) => error.rawMessage)).toEqual([]);
  expect(result.valid).toBe(true);
}

interface Element {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly text: string;
}

function decode(text: string): string {
  return text.replace(/&(#\d+|lt|gt|amp|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith("#")) return String.fromCharCode(Number(entity.slice(1)));
    return ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" } as Record<string, string>)[entity] ?? "";
  });
}

/** The elements of one name, with decoded attributes and text (enough XML for our own, schema-valid output). */
function elements(xml: string, name: string): Element[] {
  const pattern = new RegExp(`<${name}((?:\\s+[\\w.-]+="[^"]*")*)\\s*(?:/>|>([\\s\\S]*?)</${name}>)`, "g");
  return [...xml.matchAll(pattern)].map((match) => ({
    name,
    attributes: Object.fromEntries(
      [...(match[1] ?? "").matchAll(/([\w.-]+)="([^"]*)"/g)].map((attribute) => [
        attribute[1],
        decode(attribute[2] ?? ""),
      ]),
    ),
    text: decode(match[2] ?? ""),
  }));
}

describe("junit reporter", () => {
  it("carries the run's warnings as properties of the first suite, the XML still valid (issue 31)", async () => {
    const xml = await junit(failingRun());
    expect(xml).toContain(
      '<property name="conform.warning.1" value="the target sent no X-RateLimit-Reset header; pacing by Retry-After only"/>',
    );
    expect(xml.match(/conform\.warning\.1"/g)).toHaveLength(1);
    await validateAgainstXsd(xml);
  });

  it("xmllint refuses what the schema forbids (the validator bites)", async () => {
    const result = await validateXML({
      xml: {
        fileName: "bad.xml",
        contents: '<testsuites tests="1" failures="0" errors="0" time="1" skipped="0"/>',
      },
      schema: { fileName: "junit.xsd", contents: await readFile(xsdPath, "utf8") },
    });
    expect(result.valid).toBe(false);
  });

  it.each([
    ["all green", allGreenRun],
    ["with failures", failingRun],
    ["interrupted", interruptedRun],
    ["crashed", crashedRun],
  ])("is valid against the JUnit XSD (%s)", async (_name, events) => {
    await validateAgainstXsd(await junit(events()));
  });

  it("one testcase per case, classname = suite id, time in seconds", async () => {
    const xml = await junit(allGreenRun());
    const cases = elements(xml, "testcase");
    expect(cases.map((one) => [one.attributes.classname, one.attributes.name, one.attributes.time])).toEqual([
      ["instances-read", "list instances", "0.013"],
      ["instances-read", "get one instance", "0.008"],
      ["instances-read", "get a missing instance: 404 with an error body", "0.007"],
      ["pagination", "regions fit one page", "0.005"],
      ["pagination", "walking every page yields each item once", "0.040"],
    ]);
    expect(elements(xml, "testsuites")[0]?.attributes).toMatchObject({
      tests: "5",
      failures: "0",
      errors: "0",
      time: "1.250",
    });
    const properties = Object.fromEntries(
      elements(xml, "property").map((one) => [one.attributes.name, one.attributes.value]),
    );
    expect(properties).toMatchObject({ "conform.seed": "424242", "conform.runId": "20250301T120000Z-green" });
    expect(properties["conform.case.walk-pages.seed"]).toBe("424242");
  });

  it("failures carry the first message, the check as type, and the whole story as text", async () => {
    const xml = await junit(failingRun());
    const suites = elements(xml, "testsuite");
    expect(
      suites.map((suite) => [
        suite.attributes.name,
        suite.attributes.tests,
        suite.attributes.failures,
        suite.attributes.errors,
        suite.attributes.skipped,
      ]),
    ).toEqual([
      ["instances-read", "2", "1", "0", "0"],
      ["x-filter", "1", "1", "0", "0"],
      ["workflows", "3", "0", "1", "1"],
    ]);
    const failures = elements(xml, "failure");
    expect(failures).toHaveLength(2);
    const schemaFailure = failures[0]!;
    expect(schemaFailure.attributes.type).toBe("body-matches-schema");
    expect(schemaFailure.attributes.message).toContain(
      "body-matches-schema: /status must be one of the allowed values",
    );
    // Hostile text survives as text (escaped in the file, intact once parsed).
    expect(schemaFailure.attributes.message).toContain(JSON.stringify(hostileLabel).slice(0, 40));
    expect(schemaFailure.text).toContain('expected: {"status":["running","offline","booting"]}');
    expect(schemaFailure.text).toContain("operation: GET /v4/linode/instances/7 (getComputeInstance)");
    expect(schemaFailure.text).toContain(`-H "Authorization: Bearer $CONFORM_TOKEN"`);
    const generated = failures[1]!;
    expect(generated.text).toContain("generated case: seed -1893247561, path 41:2:0");
    expect(generated.text).toContain("replay: conform replay --suite x-filter --case filter-property");
    const properties = Object.fromEntries(
      elements(xml, "property").map((one) => [one.attributes.name, one.attributes.value]),
    );
    expect(properties["conform.case.filter-property.seed"]).toBe("-1893247561");
    expect(properties["conform.case.filter-property.path"]).toBe("41:2:0");

    expect(elements(xml, "skipped").map((one) => one.attributes.message)).toEqual([
      "needs the costly tag (--tag costly)",
    ]);
    const errors = elements(xml, "error");
    expect(errors.map((one) => [one.attributes.type, one.attributes.message])).toEqual([
      ["TRANSPORT_TIMEOUT", "TRANSPORT_TIMEOUT: no answer from the target within 30000 ms"],
    ]);
    // The raw body's terminal escape, NUL and U+FFFF cannot be carried by XML 1.0: they are visible text instead.
    expect(errors[0]?.text).toContain("\\u001b[2J");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
    expect(xml).not.toMatch(/[\u0000\u0007\u001b\uFFFF]/);
  });

  it("a group told in full once: a later case of the same group says 'same as group' instead", async () => {
    const xml = await junit(repeatedFailureRun());
    await validateAgainstXsd(xml);
    const [first, again] = elements(xml, "failure").filter((failure) =>
      failure.attributes.type?.startsWith("body-matches-schema"),
    );
    expect(first?.text).toContain("expected:");
    expect(again?.text).toMatch(/✗ body-matches-schema: same as group [0-9a-f]{10} \(2×\): \/status must be/);
    expect(again?.text).not.toContain("expected:");
    expect(again?.attributes.message).toContain("body-matches-schema: /status must be one of");
  });

  it("with --baseline, a case whose every failure group is known is skipped as a known failure; new ones still fail", async () => {
    // instances-read/get fails only in a known group; x-filter fails in a new one; the errored case has a known
    // error group but a new failure group, so it stays an error.
    const known = ["165419cad6", "f485dac5d1"];
    const events = failingRun().map((event): RunEvent => {
      if (event.type !== "run-finished") return event;
      const finished: RunFinished = {
        ...event,
        baseline: { source: "base/report.json", known, new: ["2ea951dd0d", "33d9cd9c29"], fixed: [] },
      };
      return finished;
    });
    const xml = await junit(events);
    await validateAgainstXsd(xml);
    const testcases = [
      ...xml.matchAll(/<testcase\b[^>]*name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g),
    ].map((match) => [
      decode(match[1] ?? ""),
      /<(skipped|failure|error)\b/.exec(match[2] ?? "")?.[1] ?? "passed",
    ]);
    const skipped = elements(xml, "skipped").filter((one) =>
      one.attributes.message?.startsWith("known failure"),
    );
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.attributes.message).toMatch(/^known failure \(baseline base\/report\.json\): \S/);
    expect(skipped[0]?.text).toContain("case get");
    expect(elements(xml, "failure")).toHaveLength(1);
    expect(elements(xml, "error")).toHaveLength(1);
    // In order: the known failure, the new failure, the error, and the case skipped with its reason.
    expect(testcases.filter(([, kind]) => kind !== "passed").map(([, kind]) => kind)).toEqual([
      "skipped",
      "failure",
      "error",
      "skipped",
    ]);
    expect(elements(xml, "testsuites")[0]?.attributes).toMatchObject({ failures: "1", errors: "1" });
  });

  it("a case the run was interrupted in is skipped, saying so (neither a failure nor an error)", async () => {
    const xml = await junit(interruptedRun());
    expect(elements(xml, "error")).toHaveLength(0);
    expect(elements(xml, "skipped").map((one) => one.attributes.message)).toEqual([
      expect.stringMatching(/^interrupted: /),
      "the run was interrupted",
    ]);
    expect(elements(xml, "testsuites")[0]?.attributes).toMatchObject({
      tests: "4",
      errors: "0",
      failures: "0",
    });
  });

  it("cases a stopped run was in are errors; suites that never started are left out", async () => {
    const xml = await junit(crashedRun());
    expect(elements(xml, "testsuite").map((suite) => suite.attributes.name)).toEqual(["workflows"]);
    const interrupted = elements(xml, "error");
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]?.attributes.type).toBe("INTERRUPTED");
    expect(elements(xml, "testsuites")[0]?.attributes).toMatchObject({ tests: "3", errors: "1" });
  });
});
