/**
 * GitHub Actions annotations (`--reporter github`): when the run ends, one `::error` workflow command per failure
 * group, largest first, so each group shows once on the job and in the pull request's checks, never once per
 * failure. Its message: the group's first message and size, the operations it was seen on, the case it was first
 * seen in, the first kept request as a curl line (the token a shell variable) and, for a generated case, its seed
 * and replay command. The job summary stays `summary.md` (the markdown reporter), appended to
 * `$GITHUB_STEP_SUMMARY` by the workflow. Everything comes from the events; nothing is grouped here.
 * @module
 */
import type { FailureGroup } from "../core/events.ts";
import { coverageLine, summarizeTable } from "../runner/coverage-summary.ts";
import { curlLine } from "./_internals/curl.ts";
import {
  failuresByGroup,
  type GroupFailure,
  groupExamples,
  groupOperations,
  groupSize,
  operationLine,
} from "./_internals/failure-text.ts";
import { notShownLines, notShownTitle } from "./_internals/not-shown-text.ts";
import { RunRecord } from "./_internals/run-record.ts";
import type { Reporter, ReporterOptions } from "./types.ts";

/** A workflow command's message: `%`, CR and LF escaped (GitHub's own toolkit `escapeData`). */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow command's property (`title=`): also `:` and `,` escaped (`escapeProperty`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** The lines of one group's annotation, from its first failure kept in full (else its first failure). */
function groupMessage(group: FailureGroup, failures: readonly GroupFailure[], insecure: boolean): string {
  // The example's first line: an error's stack, if any, is in the other reports.
  const lines = [group.example.split("\n")[0] ?? "", `${groupSize(group)} · group ${group.id}`];
  const operations = groupOperations(group);
  if (operations) lines.push(`operations: ${operations}`);
  const first = groupExamples(failures, 1)[0];
  const where = first?.event ?? undefined;
  if (where) lines.push(`first in: ${where.suiteId} › ${where.title}`);
  else if (group.firstCases[0])
    lines.push(`first in: ${group.firstCases[0].suiteId}/${group.firstCases[0].caseId}`);
  const exchange = first?.check?.exchange;
  if (exchange) {
    lines.push(`operation: ${operationLine(exchange)}`);
    lines.push(`reproduce: ${curlLine(exchange.request, { insecure })}`);
  }
  const reproduction = first?.check?.result.reproduction ?? where?.reproduction;
  if (reproduction) {
    lines.push(
      `seed: ${reproduction.seed}${reproduction.path === undefined ? "" : `, path ${reproduction.path}`}`,
    );
    if (reproduction.replay) lines.push(`replay: ${reproduction.replay}`);
  }
  return lines.join("\n");
}

/**
 * The coverage line as a notice, or as an error when `--fail-under` says the run falls short of it. Only for a run
 * that ended: before that the table is partial.
 */
function coverageAnnotation(record: RunRecord): string[] {
  if (!record.finished) return [];
  const coverage = record.coverage();
  const line = coverageLine(summarizeTable(coverage.operations, coverage.total));
  const shortfall = record.finished.failUnder?.message;
  return shortfall
    ? [`::error title=${escapeProperty("conform coverage")}::${escapeData(`${shortfall}\n${line}`)}`]
    : [`::notice title=${escapeProperty("conform coverage")}::${escapeData(line)}`];
}

/** What traffic conform did not make never showed (proxy, verify), as one notice; nothing for a run. */
function notShownAnnotation(record: RunRecord): string[] {
  const notShown = record.finished?.notShown;
  if (!notShown) return [];
  return [
    `::notice title=${escapeProperty(`conform: ${notShownTitle.toLowerCase()}`)}::${escapeData(notShownLines(notShown).join("\n"))}`,
  ];
}

/** The annotations of a run, one line each (`::error title=...::message`), then its coverage. */
export function githubAnnotations(record: RunRecord): string[] {
  const insecure = record.started?.target.embedded ?? false;
  const byGroup = failuresByGroup(record.failures());
  const groups = record.groups().map((group) => {
    const title = `conform ${group.checkId} (${group.failures}×)`;
    const message = groupMessage(group, byGroup.get(group.id) ?? [], insecure);
    return `::error title=${escapeProperty(title)}::${escapeData(message)}`;
  });
  return [...groups, ...coverageAnnotation(record), ...notShownAnnotation(record)];
}

export function createGithubReporter(options: ReporterOptions): Reporter {
  const record = new RunRecord();
  return {
    name: "github",
    files: [],
    ...record.hooks,
    async close() {
      if (!record.started) return;
      const lines = githubAnnotations(record);
      // A workflow command must start its line: whatever was printed before may not have ended one.
      if (lines.length > 0) options.stream.write(`\n${lines.join("\n")}\n`);
    },
  };
}
