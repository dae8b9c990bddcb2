/**
 * Outcomes are values: a check or an assertion passes, fails (saying what was expected and what came), or is
 * skipped with a reason. Nothing in a check throws for a failed expectation.
 * @module
 */

export type Severity = "error" | "warning";

export type CheckOutcome =
  | { readonly status: "passed" }
  | {
      readonly status: "failed";
      readonly message: string;
      readonly expected?: unknown;
      readonly actual?: unknown;
      readonly severity?: Severity;
    }
  | { readonly status: "skipped"; readonly reason: string };

export const passed: CheckOutcome = Object.freeze({ status: "passed" });

export function failed(
  message: string,
  details: { expected?: unknown; actual?: unknown; severity?: Severity } = {},
): CheckOutcome {
  return { status: "failed", message, ...details };
}

export function skipped(reason: string): CheckOutcome {
  return { status: "skipped", reason };
}

/** Whether a result is a suite's own assertion (`assert:<name>`), not a check's verdict on an exchange. */
export function isAssertion(checkId: string): boolean {
  return checkId.startsWith("assert:");
}

/** What reproduces a generated case: the property run's seed and path, and the shrunk counterexample. */
export interface Reproduction {
  readonly seed: number;
  readonly path?: string;
  readonly counterexample?: unknown;
  /** A command line that replays it. */
  readonly replay?: string;
}

/** One check's verdict on one exchange (or a suite's own assertion), as reported. */
export interface CheckResult {
  /** Check id (`body-matches-schema`) or, for a suite's own assertion, `assert:<name>`. */
  readonly checkId: string;
  /** The exchange it judged, if any. */
  readonly exchangeId: number | undefined;
  readonly outcome: CheckOutcome;
  /** A failed result's failure group (the engine assigns it: same check, same message shape). */
  readonly group?: string;
  /**
   * How many failures of its group in its case this result stands for (absent: one). Repeats within a case are
   * collapsed into the first: a case with hundreds of exchanges failing the same way reports one result.
   */
  readonly count?: number;
  /**
   * What reproduces this failure when a generated property made it (its seed, path, counterexample and replay
   * line): a case with several falsified properties shows each failure with its own.
   */
  readonly reproduction?: Reproduction;
}
