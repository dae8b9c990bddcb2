/**
 * A named fault: one small, deliberate break of the reference server's behaviour, and the suites (and checks)
 * that must catch it. The fault matrix runs the suites against the server with each fault in turn: a fault no
 * claimed suite catches is a hole in the toolkit; a clean server a suite fails is a false alarm.
 * @module
 */
import type { ReplyRewrite } from "../app.ts";
import type { ReferenceBehaviour } from "../behaviour.ts";
import type { Handler } from "../context.ts";
import type { ReferenceState } from "../state.ts";

/** What a fault may change, and nothing else. */
export interface FaultTarget {
  readonly state: ReferenceState;
  /** Swap one of the server's decisions (scope checks, expiry, pagination, filtering, probes). */
  readonly behaviour: ReferenceBehaviour;
  /** Wrap the handler of one operation. */
  wrapHandler(operationId: string, wrap: (original: Handler) => Handler): void;
  /** Change answers on their way out. */
  rewriteReplies(rewrite: ReplyRewrite): void;
}

export interface Fault {
  /** Kebab-case, the file name. */
  readonly id: string;
  /** What it breaks, in one line. */
  readonly description: string;
  /** Suites that must report a failure with this fault enabled, and the checks (ids, or `assert:` names) expected to fire. */
  readonly detectedBy: { readonly suites: readonly string[]; readonly checks?: readonly string[] };
  apply(target: FaultTarget): void;
}
