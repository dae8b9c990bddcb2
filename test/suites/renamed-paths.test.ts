/**
 * Suites find operations by operationId, never by path: a full embedded run against a copy of the bundled
 * description whose path segments are renamed consistently (operationIds kept; the embedded server started from
 * the same copy) gives the same cases and verdicts as the bundled description, skips included.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { CaseFinished } from "../../src/core/events.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

type Renaming = (segment: string) => string;

/** A copy of the bundled description with every literal path segment renamed; answers its file. */
function renamedDescription(name: string, rename: Renaming): string {
  const document = parse(readFileSync(bundledSpecPath, "utf8")) as { paths: Record<string, unknown> };
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path
        .split("/")
        .map((segment) => (segment === "" || segment.startsWith("{") ? segment : rename(segment)))
        .join("/"),
      item,
    ]),
  );
  const file = join(mkdtempSync(join(tmpdir(), "conform-renamed-")), `${name}.yaml`);
  writeFileSync(file, stringify(document));
  return file;
}

/** What a run decided, case by case: status and skip reason (in the bundled description's words). */
function verdicts(events: readonly { type: string }[], unrename: (text: string) => string) {
  return events
    .filter((event): event is CaseFinished => event.type === "case-finished")
    .map((event) => ({
      case: `${event.suiteId}/${event.caseId}`,
      status: event.status,
      ...(event.skipReason ? { skipReason: unrename(event.skipReason) } : {}),
    }))
    .sort((a, b) => a.case.localeCompare(b.case));
}

const renamings: [string, Record<string, string>][] = [
  ["compute becomes linode (the issue's renaming)", { compute: "linode" }],
  [
    "every area renamed",
    {
      nodebalancers: "balancers",
      compute: "machines",
      networking: "net",
      regions: "zones",
      profile: "me",
      account: "acct",
      oauth: "auth2",
    },
  ],
];

describe("suites on a description whose paths are renamed", async () => {
  const bundled = await runSuites({});

  it("the bundled description's run is green", () => {
    expect(describeProblems(bundled)).toBe("");
    expect(bundled.finished.counts.failed).toBe(0);
  });

  it.each(renamings)("%s: the same cases and verdicts, skips included", async (name, table) => {
    const specPath = renamedDescription(name.split(" ")[0]!, (segment) => table[segment] ?? segment);
    const run = await runSuites({ specPath });
    const back = Object.entries(table);
    const unrename = (text: string) =>
      back.reduce((out, [from, to]) => out.replaceAll(`/${to}`, `/${from}`), text);
    expect(describeProblems(run)).toBe("");
    expect(run.finished.counts).toEqual(bundled.finished.counts);
    expect(verdicts(run.events, unrename)).toEqual(verdicts(bundled.events, (text) => text));
  });
});
