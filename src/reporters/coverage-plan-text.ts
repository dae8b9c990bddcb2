/**
 * The coverage plan as `conform spec --plan` prints it: a line per operation (requested by the generic layer, or
 * why not, as the run's coverage table says it), then one line of counts per reason.
 * @module
 */
import type { OperationPlan } from "../core/events.ts";
import { reasonWords } from "../runner/coverage-summary.ts";
import type { OperationsPlan } from "../runner/plan-operations.ts";
import { terminalSafe } from "./_internals/text.ts";

const safe = (text: string) => terminalSafe(text, true);

function rowLine(row: OperationPlan, width: number): string {
  const where = safe(`${row.method} ${row.path}`).padEnd(width);
  const why = row.notRequested;
  const withheld = row.validWithheld ? `; valid request withheld: ${safe(row.validWithheld)}` : "";
  const text = why
    ? `not requested: ${reasonWords[why.reason]}: ${safe(why.detail)}`
    : `requested${withheld}`;
  return `  ${why ? "-" : "✓"} ${where}  ${safe(row.operationId)}  ${text}`;
}

/** "45 of 48 operations would be requested by the generic layer; 3 would not (3 another server's)". */
export function planLine(operations: readonly OperationPlan[]): string {
  const counts = new Map<string, number>();
  for (const row of operations)
    if (row.notRequested) counts.set(row.notRequested.reason, (counts.get(row.notRequested.reason) ?? 0) + 1);
  const never = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const reasons = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, count]) => `${count} ${reasonWords[reason as keyof typeof reasonWords]}`)
    .join(", ");
  return `${operations.length - never} of ${operations.length} operations would be requested by the generic layer; ${never} would not${reasons ? ` (${reasons})` : ""}`;
}

export function coveragePlanText(plan: OperationsPlan): string {
  const { operations } = plan;
  const width = Math.min(
    60,
    Math.max(0, ...operations.map((row) => row.method.length + row.path.length + 1)),
  );
  const writes = plan.writesAllowed
    ? "writes allowed (--allow-writes, or the embedded reference server)"
    : "writes not allowed (a target without --allow-writes: writes get only requests that cannot change anything)";
  return [
    "",
    `Coverage plan (no request sent): ${writes}`,
    ...(plan.genericLeftOut ? [`  the generic layer would not run: ${plan.genericLeftOut}`] : []),
    ...operations.map((row) => rowLine(row, width)),
    "",
    planLine(operations),
    "",
  ].join("\n");
}
