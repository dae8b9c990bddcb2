/**
 * The HTML report, opened as a person would: headless Chromium (test/helpers/chromium.ts: the system's or the one
 * the npm install brings) loads the file and we read what renders. A missing browser fails this test, it never
 * skips it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent, RunFinished } from "../../src/core/events.ts";
import { escapeHtml } from "../../src/reporters/_internals/escape-html.ts";
import { createHtmlReporter, htmlContentSecurityPolicy, htmlReportFile } from "../../src/reporters/html.ts";
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { crashedRun, interruptedRun } from "../fixtures/events/interrupted.ts";
import {
  failingRun,
  hostileHtmlBody,
  hostileLabel,
  repeatedFailureRun,
} from "../fixtures/events/with-failures.ts";
import { launchChromium } from "../helpers/chromium.ts";
import { feed, fileOptions } from "./helpers.ts";

async function writeHtml(events: RunEvent[]): Promise<string> {
  const options = await fileOptions();
  await feed(createHtmlReporter(options), events);
  return join(options.outputDir, htmlReportFile);
}

describe("html reporter (file)", () => {
  it.each([
    ["all green", allGreenRun],
    ["with failures", failingRun],
    ["interrupted", interruptedRun],
    ["crashed", crashedRun],
  ])("is one self-contained file (%s)", async (_name, events) => {
    const text = await readFile(await writeHtml(events()), "utf8");
    expect(text.startsWith("<!doctype html>")).toBe(true);
    // Nothing is loaded from anywhere: no external script, stylesheet, image, font or frame.
    expect(text).not.toMatch(/<(?:script|img|iframe|link|object|embed)[^>]+(?:src|href)=/i);
    expect(text).not.toMatch(/url\(/i);
    expect(text.match(/<script>/g)).toHaveLength(1);
    expect(text).toContain(`content="${escapeHtml(htmlContentSecurityPolicy)}"`);
  });

  it("with --baseline, shows the groups the engine called new, known and fixed", async () => {
    const events = failingRun().map((event): RunEvent => {
      if (event.type !== "run-finished") return event;
      const finished: RunFinished = {
        ...event,
        baseline: {
          source: "base/report.json",
          known: ["165419cad6", "f485dac5d1"],
          new: ["2ea951dd0d", "33d9cd9c29"],
          fixed: [
            {
              id: "gone123456",
              checkId: "spec-version-header",
              shape: "gone <n>",
              example: "gone 1",
              suites: ["s"],
            },
          ],
        },
      };
      return finished;
    });
    const text = await readFile(await writeHtml(events), "utf8");
    const section = /<section id="baseline">([\s\S]*?)<\/section>/.exec(text)?.[1] ?? "";
    expect(section).toContain("<code>base/report.json</code>: 2 new, 2 known, 1 fixed");
    const linked = (id: string) =>
      [
        ...(new RegExp(`<ul id="${id}">([\\s\\S]*?)</ul>`).exec(section)?.[1] ?? "").matchAll(
          /href="#group-(\w+)"/g,
        ),
      ]
        .map((match) => match[1])
        .sort();
    expect(linked("baseline-new")).toEqual(["2ea951dd0d", "33d9cd9c29"]);
    expect(linked("baseline-known")).toEqual(["165419cad6", "f485dac5d1"]);
    expect(section).toMatch(/<ul id="baseline-fixed"><li><code>spec-version-header<\/code> gone &lt;n&gt;/);
    // Every link leads to a row of the failure groups' table.
    for (const id of [...linked("baseline-new"), ...linked("baseline-known")])
      expect(text).toContain(`id="group-${id}"`);
  });

  it("has no baseline section without --baseline", async () => {
    expect(await readFile(await writeHtml(failingRun()), "utf8")).not.toContain('id="baseline"');
  });

  it("escapes what the target sent: no markup of its own gets into the page", async () => {
    const text = await readFile(await writeHtml(failingRun()), "utf8");
    expect(text).not.toContain("<script>window.__pwned");
    expect(text).not.toContain("<img src=x");
    expect(text).toContain("&lt;script&gt;window.__pwned = 1&lt;/script&gt;&lt;img src=x onerror=");
  });
});

describe("html reporter in Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open(events: RunEvent[]) {
    const path = await writeHtml(events);
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    let dialogs = 0;
    page.on("request", (request) => requests.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("dialog", async (dialog) => {
      dialogs += 1;
      await dialog.dismiss();
    });
    const url = pathToFileURL(path).href;
    await page.goto(url);
    return { page, url, requests, problems, dialogs: () => dialogs };
  }

  it("counts cases on a suite's row and checks on a case's row, each saying which", async () => {
    const { page } = await open(failingRun());
    try {
      const suites = await page.locator("tr.suite-row td:nth-child(4)").allTextContents();
      const cases = await page.locator("tr.case-row td:nth-child(4)").allTextContents();
      expect(suites.length).toBeGreaterThan(0);
      for (const cell of suites) expect(cell).toMatch(/^\d+\/\d+ cases$/);
      expect(cases.length).toBeGreaterThan(0);
      for (const cell of cases) expect(cell).toMatch(/^(\d+\/\d+ checks|-)$/);
    } finally {
      await page.close();
    }
  });

  it("reads at 420 px: nothing wider than the screen (a screenshot is taken), every element inside it", async () => {
    const path = await writeHtml(failingRun());
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    try {
      await page.goto(pathToFileURL(path).href);
      // Open every failure, so what it shows (request, response, curl line) is measured too. The page's own code
      // as text: this project's types have no DOM.
      await page.evaluate('for (const details of document.querySelectorAll("details")) details.open = true');
      const screenshot = await page.screenshot({ fullPage: true });
      expect(screenshot.readUInt32BE(16), "the full-page screenshot's width").toBe(420);
      // Elements reaching past the screen's right edge; inside a scrolling box (a pre, a wide table's box) the
      // content scrolls in its box, which is what is measured.
      const overflow = await page.evaluate(`({
        page: document.documentElement.scrollWidth,
        wide: [...document.querySelectorAll("body *")]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
          .filter((element) => element.matches("pre, .scroll-x") || !element.closest("pre, .scroll-x"))
          .slice(0, 5)
          .map((element) => element.tagName.toLowerCase() + "#" + element.id + "." + element.className),
      })`);
      expect(overflow).toEqual({ page: 420, wide: [] });
    } finally {
      await page.close();
    }
  });

  it("renders the summary, charts and coverage; its script runs and nothing is fetched", async () => {
    const { page, url, requests, problems } = await open(failingRun());
    try {
      await expect(page.title()).resolves.toBe("conform report: 20250301T120500Z-fail");
      expect(await page.locator("#run-id").textContent()).toBe("20250301T120500Z-fail");
      expect(await page.locator("h1 .badge").textContent()).toBe("failed");
      const totals = await page.locator("#totals .card").allTextContents();
      expect(totals.slice(0, 4)).toEqual(["2passed", "2failed", "1errored", "1skipped"]);
      expect(await page.locator("#chart-suites g.suite-bar").count()).toBe(3);
      expect(await page.locator("#chart-latency g.latency-bar").count()).toBeGreaterThan(1);
      expect(await page.locator("#coverage-table tbody tr").count()).toBe(6);
      expect(await page.locator("#coverage-table tr.unexercised").count()).toBe(1);
      // The script ran (allowed by its CSP hash): it filled in the count.
      expect(await page.locator("#filter-count").textContent()).toBe("6 of 6 cases");
      expect(requests).toEqual([url]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("filters cases by text and by status", async () => {
    const { page } = await open(failingRun());
    try {
      const visible = () => page.locator("tr.case-row:not(.hidden)").count();
      await page.locator("#filter-text").fill("oracle");
      expect(await visible()).toBe(1);
      expect(await page.locator("#filter-count").textContent()).toBe("1 of 6 cases");
      expect(await page.locator("tr.suite-row:not(.hidden)").allTextContents()).toEqual([
        expect.stringContaining("x-filter"),
      ]);
      await page.locator("#filter-text").fill("");
      await page.locator("#filter-status").selectOption("skipped");
      expect(await page.locator("tr.case-row:not(.hidden) td:nth-child(2)").allTextContents()).toEqual([
        expect.stringContaining("resize keeps the disks"),
      ]);
      await page.locator("#filter-status").selectOption("all");
      expect(await visible()).toBe(6);
    } finally {
      await page.close();
    }
  });

  it("shows a failure's details: checks, request, response, curl line, seed", async () => {
    const { page, dialogs, problems } = await open(failingRun());
    try {
      await page
        .locator("tr.case-row", { hasText: "filtered lists match the oracle" })
        .getByRole("link")
        .click();
      const details = page.locator("details#failure-1");
      await expect(details.getAttribute("open")).resolves.toBe("");
      expect(await details.locator(".check .id").textContent()).toBe("filter-semantics");
      expect(await details.locator("pre.actual").textContent()).toBe("[\n  3\n]");
      expect(await details.locator("dd.seed").textContent()).toBe("-1893247561");
      expect(await details.locator("pre.counterexample").textContent()).toContain('"+contains": "a\'b"');
      expect(await details.locator("pre.replay").textContent()).toBe(
        "conform replay --suite x-filter --case filter-property --seed -1893247561 --path 41:2:0",
      );
      expect(await details.locator("pre.request").textContent()).toContain(
        "authorization: Bearer [REDACTED]",
      );
      expect(await details.locator("pre.curl").textContent()).toContain(
        `-H "Authorization: Bearer $CONFORM_TOKEN"`,
      );

      // The hostile bodies are shown as text, and nothing in them ran.
      // Failure views start open.
      const first = page.locator("details#failure-0");
      await expect(first.getAttribute("open")).resolves.toBe("");
      expect(await first.locator("pre.response").textContent()).toContain(
        hostileLabel.replaceAll('"', '\\"'),
      );
      const gateway = page.locator("details#failure-2");
      expect(await gateway.locator("pre.response").textContent()).toContain(hostileHtmlBody.slice(0, 60));
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.locator("script").count()).toBe(1);
      expect(dialogs()).toBe(0);
      expect(problems).toEqual([]);
      // For a person to look at: CONFORM_SCREENSHOTS=<dir> npm test -- test/reporters/html.test.ts
      if (process.env.CONFORM_SCREENSHOTS) {
        await page.screenshot({
          path: join(process.env.CONFORM_SCREENSHOTS, "conform-html-report.png"),
          fullPage: true,
        });
      }
    } finally {
      await page.close();
    }
  });

  it("lists the failure groups largest first, linked to their cases; a failure's message is told once", async () => {
    const { page, problems } = await open(repeatedFailureRun());
    try {
      const rows = page.locator("#group-table tr.group-row");
      expect(await rows.count()).toBe(4);
      const first = rows.first();
      expect(await first.locator("td").first().textContent()).toBe("2");
      expect(await first.textContent()).toContain("body-matches-schema");
      expect(await first.textContent()).toContain("2 failures in 2 cases");
      await first.getByRole("link").first().click();
      const details = page.locator("details#failure-0");
      expect(await details.locator("summary").textContent()).not.toContain("must be one of");
      expect(await details.locator(".check .message").first().textContent()).toContain("must be one of");
      expect(await details.locator(".check .group-link").first().getAttribute("href")).toMatch(/^#group-/);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("an interrupted run shows its interrupted case, a stopped one its unfinished case; an all-green run says there are no failures", async () => {
    const interrupted = await open(interruptedRun());
    try {
      expect(await interrupted.page.locator("h1 .badge").textContent()).toBe("interrupted");
      expect(await interrupted.page.locator(".card.interrupted").textContent()).toBe("1interrupted");
      await interrupted.page.locator("#filter-status").selectOption("interrupted");
      expect(await interrupted.page.locator("tr.case-row:not(.hidden)").allTextContents()).toEqual([
        expect.stringContaining("the instance boots"),
      ]);
      expect(await interrupted.page.locator("#notes").textContent()).toContain("linode/instances/123");
    } finally {
      await interrupted.page.close();
    }
    const stopped = await open(crashedRun());
    try {
      await stopped.page.locator("#filter-status").selectOption("unfinished");
      expect(await stopped.page.locator("tr.case-row:not(.hidden)").allTextContents()).toEqual([
        expect.stringContaining("the instance boots"),
      ]);
    } finally {
      await stopped.page.close();
    }
    const green = await open(allGreenRun());
    try {
      expect(await green.page.locator("#failures .empty").textContent()).toBe("No failures.");
      expect(await green.page.locator("#filter-count").textContent()).toBe("5 of 5 cases");
    } finally {
      await green.page.close();
    }
  });
});
