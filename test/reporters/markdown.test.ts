import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import { createMarkdownReporter, markdownReportFile } from "../../src/reporters/markdown.ts";
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { crashedRun, interruptedRun } from "../fixtures/events/interrupted.ts";
import { failingRun } from "../fixtures/events/with-failures.ts";
import { feed, fileOptions } from "./helpers.ts";

async function summary(events: RunEvent[], maxGroups?: number): Promise<string> {
  const options = await fileOptions();
  await feed(createMarkdownReporter(options, maxGroups === undefined ? {} : { maxGroups }), events);
  return readFile(join(options.outputDir, markdownReportFile), "utf8");
}

/** The suites table's rows (without header and separator) as cells, honouring escaped pipes. */
function tableRows(markdown: string): string[][] {
  const table = markdown.split("| | Suite")[1]?.split("\n\n")[0] ?? "";
  return table
    .split("\n")
    .filter((line) => line.startsWith("| "))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

describe("markdown reporter", () => {
  it("an all-green run: headline, one row per suite, coverage", async () => {
    const text = await summary(allGreenRun());
    expect(text.split("\n")[0]).toBe(
      "### ✅ conform passed: 0 failed, 0 errored, 5 passed, 0 skipped in 1.25 s",
    );
    expect(tableRows(text)).toEqual([
      ["✅", "`instances-read` Instances: read operations", "3", "0", "0", "0", "30 ms"],
      ["✅", "`pagination` Pagination invariants", "2", "0", "0", "0", "46 ms"],
    ]);
    expect(text).toContain(
      "Coverage: 3/6 operations exercised (50 %) · statuses seen: 200, 404 · 7 exchanges, 0 × 429, 0 retries",
    );
    expect(text).not.toContain("Failures");
  });

  it("ends with a warnings section when the run has warnings (issue 31)", async () => {
    const text = await summary(failingRun());
    const section = text.split("**Warnings (")[1];
    expect(section).toBeDefined();
    expect(section).toMatch(/^\d+\)\*\*:\n\n- /);
  });

  it("puts each group's first curl line and replay command under it, collapsed; a group with neither has none", async () => {
    const text = await summary(failingRun());
    const blocks = [
      ...text.matchAll(
        /\n {2}<details><summary>reproduce<\/summary>\n\n {2}```sh\n([\s\S]*?)\n {2}```\n\n {2}<\/details>/g,
      ),
    ].map((match) => match[1]!.split("\n").map((line) => line.trim()));
    expect(blocks).toHaveLength(3);
    for (const block of blocks) expect(block[0]).toMatch(/^curl .*"Authorization: Bearer \$CONFORM_TOKEN"/);
    expect(blocks.flat()).toContain(
      "conform replay --suite x-filter --case filter-property --seed -1893247561 --path 41:2:0",
    );
    // The errored group (no exchange kept, no replay) has no block: its line is followed by the next group's.
    expect(text).toMatch(/`f485dac5d1`\n- \*\*1×\*\*/);
  });

  it("lists failure groups largest first with their first message and case, seeds included, hostile text inert", async () => {
    const text = await summary(failingRun());
    expect(text.split("\n")[0]).toMatch(/^### ❌ conform failed: 2 failed, 1 errored, 2 passed, 1 skipped/);
    expect(text).toContain("**Failure groups (4), largest first**");
    const groupsPart = text.split("**Warnings")[0]!;
    const failures = groupsPart.split("\n").filter((line) => line.startsWith("- "));
    expect(failures).toHaveLength(4);
    expect(failures[0]).toMatch(/^- \*\*1×\*\* `body-matches-schema`: ``\/status must be one of/);
    expect(failures[0]).toContain("(1 failure in 1 case; first in `instances-read` › get one instance)");
    expect(failures[1]).toContain(
      "`error:TRANSPORT_TIMEOUT`: `no answer from the target within 30000 ms` (1 failure in 1 case",
    );
    expect(failures[2]).toContain("(seed `-1893247561`)");
    expect(failures[3]).toContain("`not-a-server-error`");
    // The hostile label sits inside a code span (no HTML, links or mentions are rendered there), pipes escaped.
    expect(failures[0]).toContain("<script>window.__pwned = 1</script>");
    expect(failures[0]).toContain("\\|");
    expect(failures[0]).toMatch(/^- \*\*1×\*\* `body-matches-schema`: ``[^`].*`tick`.*[^`]`` \(/);
    expect(text).toContain("2 × 429, 2 retries");
    expect(tableRows(text)).toHaveLength(3);
    expect(tableRows(text).every((row) => row.length === 7)).toBe(true);
  });

  it("keeps a PR comment short", async () => {
    const text = await summary(failingRun(), 1);
    expect(text.split("\n").filter((line) => line.startsWith("- **"))).toHaveLength(1);
    expect(text).toContain("- … and 3 more groups: see the HTML or JSON report");
  });

  it("says so when a run was interrupted or never finished", async () => {
    const interrupted = await summary(interruptedRun());
    expect(interrupted.split("\n")[0]).toMatch(/^### ⏹️ conform was interrupted/);
    expect(interrupted.split("\n")[0]).toContain("2 passed, 1 skipped, 1 interrupted");
    expect(interrupted).toContain("**Interrupted (1)**: `workflows` › the instance boots");
    expect(interrupted).not.toContain("Unfinished");
    expect(interrupted).not.toContain("The run stopped before it finished");
    expect(interrupted).toContain("**Cleanup left 1 resource(s) behind**");
    expect(tableRows(interrupted).map((row) => row[0])).toEqual(["⏹️", "⏭️"]);
    const crashed = await summary(crashedRun());
    expect(crashed).toContain("The run stopped before it finished");
    expect(crashed).toContain("**Unfinished (1)**: `workflows` › the instance boots");
    expect(tableRows(crashed).map((row) => row[6])).toEqual(["230 ms", "not run"]);
  });
});
