/**
 * The "not shown by this traffic" section as plain lines, one text for every format (each escapes it its own way):
 * how many operations the traffic exercised and which it never hit, each rule no exchange showed, and each check
 * that judged nothing.
 * @internal
 */
import type { NotShown } from "../../core/events.ts";

export const notShownTitle = "Not shown by this traffic";

/** Operations named before the rest are counted. */
const namedOperations = 10;

/** "the traffic exercised 12 of 48 operations; never hit: a, b, … and 26 more". */
export function operationsLine(notShown: NotShown): string {
  const { exercised, total, neverHit } = notShown.operations;
  const line = `the traffic exercised ${exercised} of ${total} operations`;
  if (neverHit.length === 0) return line;
  const more = neverHit.length - namedOperations;
  return `${line}; never hit: ${neverHit.slice(0, namedOperations).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/** The section's lines: the operations, then each rule, then each check without a verdict. */
export function notShownLines(notShown: NotShown): string[] {
  return [
    operationsLine(notShown),
    ...notShown.rules.map((rule) => `${rule.missing}: ${rule.unproven}`),
    ...notShown.checks.map((check) => `check ${check.checkId} judged nothing (${check.why})`),
  ];
}
