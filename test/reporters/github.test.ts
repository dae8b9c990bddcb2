import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import { createGithubReporter, escapeData, escapeProperty } from "../../src/reporters/github.ts";
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { failingRun, repeatedFailureRun } from "../fixtures/events/with-failures.ts";
import { feed, fileOptions } from "./helpers.ts";

async function annotations(events: RunEvent[]): Promise<string[]> {
  const options = await fileOptions();
  await feed(createGithubReporter(options), events);
  return options.capture.text.split("\n").filter((line) => line.startsWith("::"));
}

const decoded = (line: string) =>
  line
    .replace(/%0A/g, "\n")
    .replace(/%0D/g, "\r")
    .replace(/%3A/g, ":")
    .replace(/%2C/g, ",")
    .replace(/%25/g, "%");

describe("github reporter", () => {
  it("prints only the coverage notice for a green run", async () => {
    expect(await annotations(allGreenRun())).toEqual([
      "::notice title=conform coverage::3 of 6 operations exercised; 3 never requested (3 writes not allowed)",
    ]);
  });

  it("says --fail-under's shortfall as an error, with the coverage line", async () => {
    const events = allGreenRun().map(
      (event): RunEvent =>
        event.type === "run-finished"
          ? {
              ...event,
              failUnder: { threshold: 80, percent: 50, message: "coverage 50% is under --fail-under 80%" },
            }
          : event,
    );
    expect((await annotations(events)).map(decoded)).toEqual([
      "::error title=conform coverage::coverage 50% is under --fail-under 80%\n3 of 6 operations exercised; 3 never requested (3 writes not allowed)",
    ]);
  });

  it("prints one ::error per failure group, largest first, with operation, curl line and seed", async () => {
    const events = failingRun();
    const finished = events.find((event) => event.type === "run-finished");
    const groups = finished?.type === "run-finished" ? finished.groups : [];
    const lines = (await annotations(events)).filter((line) => !line.startsWith("::notice"));
    expect(groups.length).toBeGreaterThan(1);
    expect(lines).toHaveLength(groups.length);
    lines.forEach((line, index) => {
      expect(line).toMatch(/^::error title=conform [^:]+::/);
      // One line each: the message's own line breaks are escaped.
      expect(line).not.toMatch(/[\r\n]/);
      expect(decoded(line)).toContain(`group ${groups[index]?.id}`);
    });
    const first = decoded(lines[0]!);
    expect(first).toContain("operation: GET ");
    expect(first).toMatch(/reproduce: curl .*"Authorization: Bearer \$CONFORM_TOKEN"/);
    expect(lines.map(decoded).join("\n")).toMatch(/seed: -1893247561/);
  });

  it("a group failing many times is still one annotation", async () => {
    const events = repeatedFailureRun();
    const finished = events.find((event) => event.type === "run-finished");
    const groups = finished?.type === "run-finished" ? finished.groups : [];
    expect(groups.some((group) => group.failures > 1)).toBe(true);
    expect((await annotations(events)).filter((line) => line.startsWith("::error"))).toHaveLength(
      groups.length,
    );
  });

  it.each([
    ["100% done\r\nnext", "100%25 done%0D%0Anext", "100%25 done%0D%0Anext"],
    ["a: b, c", "a: b, c", "a%3A b%2C c"],
  ])("escapes %j as GitHub's toolkit does", (text, data, property) => {
    expect(escapeData(text)).toBe(data);
    expect(escapeProperty(text)).toBe(property);
  });
});
