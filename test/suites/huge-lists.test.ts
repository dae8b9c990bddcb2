/**
 * The list suites against a tiny target started here (node:http on loopback) whose lists are far longer than one
 * walk reads (more than 40 pages at the largest page size): one whose `pages` and `results` lie (page 1 already
 * breaks the envelope) must not get a single passing case of filters or pagination; an honest one gets its pages
 * read judged, and the report says completeness was not judged.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { expectPage } from "../../src/oracles/pagination-oracle.ts";
import { describedPageSize } from "../../src/spec/conventions.ts";
import { describeProblems, runSuites, type SuiteRun } from "../helpers/run-suites.ts";

/** What one list page holds and the envelope the target claims, for the page asked (exact) at a page size. */
type Answer = (page: bigint, pageSize: number) => { data: object[]; pages: number; results: number };

/**
 * Answers every GET as a list. `page` / `page_size` are read as the pagination oracle says the described API reads
 * them (400 naming each parameter at fault, the last page above 2^64 / page_size); `page` is echoed exactly.
 */
async function listServer(
  answer: Answer,
  results: number | (() => number),
): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const query = Object.fromEntries(
      ["page", "page_size"].flatMap((name) => {
        const value = url.searchParams.get(name);
        return value === null ? [] : [[name, value]];
      }),
    );
    const expected = expectPage(query, typeof results === "number" ? results : results(), describedPageSize);
    response.setHeader("content-type", "application/json");
    if (request.method !== "GET" || expected.status !== "page") {
      const fields = expected.status === "refused" ? expected.fields : ["page"];
      response.statusCode = 400;
      response.end(JSON.stringify({ errors: fields.map((field) => ({ reason: "Invalid value", field })) }));
      return;
    }
    const { data, pages, results: claimed } = answer(expected.page, expected.pageSize);
    const envelope = JSON.stringify({ data, pages, results: claimed });
    response.end(`{"page":${expected.page},${envelope.slice(1)}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4` };
}

const item = (index: number) => ({ id: index + 1, label: `item-${index + 1}` });

/** Lies: 12,972,881 results in 83,324,051 pages, five items on every page whatever the page size. */
const lying = await listServer(
  (page) => ({
    data: Array.from({ length: 5 }, (_, index) => item(Number(page - 1n) * 5 + index)),
    pages: 83_324_051,
    results: 12_972_881,
  }),
  12_972_881,
);
/** Honest: 25,000 items, pages = ceil(results / page_size): 50 pages at page size 500. */
const total = 25_000;
const honest = await listServer((page, pageSize) => {
  const start = page > BigInt(total) ? total : Number(page - 1n) * pageSize;
  const length = Math.max(0, Math.min(pageSize, total - start));
  return {
    data: Array.from({ length }, (_, index) => item(start + index)),
    pages: Math.ceil(total / pageSize),
    results: total,
  };
}, total);
/**
 * Growing: a newest-first feed of 25,000 items that gains 2 at its head with every request, as the events feed does
 * while other cases write: a walk sees the last items of a page again at the start of the next.
 */
let newest = total;
const growing = await listServer(
  (page, pageSize) => {
    const start = page > BigInt(newest) ? newest : Number(page - 1n) * pageSize;
    const length = Math.max(0, Math.min(pageSize, newest - start));
    return {
      data: Array.from({ length }, (_, index) => item(newest - 1 - start - index)),
      pages: Math.ceil(newest / pageSize),
      results: newest,
    };
  },
  () => {
    newest += 2;
    return newest;
  },
);
afterAll(() => {
  lying.server.close();
  honest.server.close();
  growing.server.close();
});

const listCases = (events: readonly { type: string }[]) =>
  events.filter((event): event is CaseFinished => event.type === "case-finished");
/** Exchange checks off but one: these stubs answer bare items, and only the suites' own verdicts matter here. */
const options = { token: "stub-token", checks: ["not-a-server-error"] };

/** The pagination suite's judging cases, after expecting each passed (its seed-data is for the embedded server). */
function everyPaginationCasePassed(run: SuiteRun): CaseFinished[] {
  const cases = listCases(run.events);
  expect(
    cases.map((event) => [event.caseId, event.status]),
    describeProblems(run),
  ).toEqual([
    ["seed-data", "skipped"],
    ["edges", "passed"],
    ["walks", "passed"],
    ["default-page-size", "passed"],
  ]);
  return cases.filter((event) => event.caseId !== "seed-data");
}

describe("list suites against lists longer than one walk reads", () => {
  it("lists whose pages and results lie: no case of filters or pagination passes", async () => {
    const run = await runSuites({ ...options, baseUrl: lying.baseUrl, suites: ["filters", "pagination"] });
    const cases = listCases(run.events);
    expect(cases.map((event) => `${event.suiteId}/${event.caseId}`)).toEqual(
      expect.arrayContaining(["pagination/edges", "pagination/walks", "filters/semantics", "filters/and-or"]),
    );
    for (const event of cases) {
      const said = `${event.suiteId}/${event.caseId}: ${event.status} ${event.skipReason ?? ""}`;
      expect(event.status, said).not.toBe("passed");
      expect(event.status, said).not.toBe("errored");
      if (event.status === "skipped") expect(event.skipReason, said).toBeTruthy();
    }
    const failed = cases.filter((event) => event.status === "failed").map((event) => event.caseId);
    expect(failed).toEqual(expect.arrayContaining(["edges", "walks", "default-page-size", "semantics"]));
    const outcomes = JSON.stringify(cases.flatMap((event) => event.results.map((result) => result.outcome)));
    expect(outcomes).toMatch(/pages = max\(1, ceil\(results 12972881 \/ page_size 500\)\)/);
  });

  it("an honest list of 50 pages: the pages read are judged and pass, and completeness is said not judged", async () => {
    const properties = new Set<string>();
    const run = await runSuites(
      { ...options, baseUrl: honest.baseUrl, suites: ["pagination"] },
      { progress: (label) => void properties.add(label) },
    );
    const cases = everyPaginationCasePassed(run);
    for (const event of cases.slice(0, 2)) {
      expect(event.logs?.join("\n")).toMatch(
        /50 pages at page_size 500, more than one walk reads \(40\): judged on the 40 pages read; completeness not judged/,
      );
    }
    // The properties judged say what they judged: the pages read, completeness not judged.
    expect([...properties]).toContain(
      "getRegions gives no item twice at any page size on the 40 pages read (completeness not judged)",
    );
    expect([...properties].filter((label) => !label.endsWith("(completeness not judged)"))).toEqual([]);
  });

  it("a newest-first list gaining items while it is walked: an item pushed on to the next page is a shift, logged, not a failure", async () => {
    const run = await runSuites({ ...options, baseUrl: growing.baseUrl, suites: ["pagination"] });
    const cases = everyPaginationCasePassed(run);
    const walks = cases.find((event) => event.caseId === "walks");
    expect(walks?.logs?.join("\n")).toMatch(
      /item\(s\) showed again on a later page while the list grew \(results \d+ on page 1, \d+ on page 40\): .*; the list changed under the walk, each judged once/,
    );
  });
});
