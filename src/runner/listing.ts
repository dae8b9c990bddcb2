/**
 * `conform run --list`: what a selection would run, as text, without running it: the suites (and those refused,
 * with why), their cases (a case left out by --exclude-tag says so), the checks applied to every exchange and the
 * operations requests may go to.
 * @module
 */
import type { RunConfig } from "./config.ts";
import type { PlannedSelection } from "./run.ts";

export function selectionListing(plan: PlannedSelection, config: RunConfig): string {
  const lines: string[] = [];
  const { selected, refused } = plan.suites;
  lines.push(`suites (${selected.length}):`);
  for (const suite of selected) {
    lines.push(`  ${suite.id}  ${suite.title}  [${suite.tags.join(", ")}]`);
    for (const entry of suite.cases) {
      const excludedBy = (entry.tags ?? []).find((tag) => config.excludeTags.includes(tag));
      lines.push(
        `    ${suite.id}/${entry.id}  ${entry.title}${excludedBy ? `  (skipped: --exclude-tag ${excludedBy})` : ""}`,
      );
    }
  }
  for (const entry of refused) lines.push(`  ${entry.suite.id}  refused: ${entry.reason}`);
  lines.push(`checks (${plan.checks.length}): ${plan.checks.map((check) => check.id).join(", ")}`);
  const operations = plan.spec.operations.all();
  const chosen = operations.filter(
    (operation) => plan.operations.leftOutReason(operation.operationId) === undefined,
  );
  lines.push(`operations (${chosen.length} of ${operations.length}):`);
  for (const operation of chosen)
    lines.push(`  ${operation.operationId}  ${operation.method.toUpperCase()} ${operation.pathTemplate}`);
  if (chosen.length < operations.length)
    lines.push("  a case that requests another operation is skipped there, saying so");
  return `${lines.join("\n")}\n`;
}
