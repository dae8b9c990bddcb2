/**
 * What failed, named apart from the property or seed that found it (issue 31): the rule judged, the operation and
 * the ingredients of the failing input (a filter's operators). A falsification that names its root cause is
 * recorded under that name, so its failure group is the same whichever property or seed finds the defect; with
 * `--baseline`, a failure a known cause explains is passed over and the property searches on for another.
 * @module
 */
import type { CaseContext } from "../runner/suite-api.ts";

export interface RootCause {
  /** What was judged and found wrong, e.g. `X-Filter answers wrongly`. */
  readonly rule: string;
  readonly operationId?: string;
  /** The ingredients of the failing input (operators): a known cause with some of them explains this one. */
  readonly parts: readonly string[];
  /** The failing input itself (a filter), for a suite that narrows the cause down to the part at fault. */
  readonly subject?: unknown;
}

/** The assertion name of a root cause: `getComputeTypes: X-Filter answers wrongly with +or`. */
export function causeName(cause: RootCause): string {
  const parts = [...new Set(cause.parts)].sort();
  const where = cause.operationId ? `${cause.operationId}: ` : "";
  return `${where}${cause.rule}${parts.length > 0 ? ` with ${parts.join(" ")}` : ""}`;
}

/** Known causes are tried with at most this many of a failure's parts (a narrowed cause names one or two). */
const maxKnownParts = 3;

/** Every combination of `size` items of `items`, in order. */
function combinations<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, index) =>
    combinations(items.slice(index + 1), size - 1).map((rest) => [item, ...rest]),
  );
}

/**
 * Whether the run's baseline already holds a failure this cause could be: the same rule and operation with the same
 * parts, or with some of them (a defect in `+or` also fails a filter with `+or` and `+neq`).
 */
export function knownCause(t: CaseContext, cause: RootCause): boolean {
  const parts = [...new Set(cause.parts)].sort();
  if (t.knownFailure(causeName(cause))) return true;
  for (let size = 1; size <= Math.min(maxKnownParts, parts.length); size += 1)
    for (const some of combinations(parts, size))
      if (t.knownFailure(causeName({ ...cause, parts: some }))) return true;
  return false;
}
