/**
 * What a run would request, before any run (`conform spec --plan`): the suites the selection options pick, found
 * as a run finds them, the operation selection, and the coverage plan from them and the description alone. No
 * target is started and no request is sent.
 * @module
 */
import type { OperationPlan } from "../core/events.ts";
import type { ApiSpec } from "../spec/types.ts";
import { genericLeftOutOf, planCoverage } from "./coverage-plan.ts";
import { discoverSuites } from "./discovery.ts";
import { type OperationSelectionOptions, selectOperations } from "./operation-selection.ts";
import { selectSuites } from "./selection.ts";

export interface OperationPlanOptions extends OperationSelectionOptions {
  readonly suitePaths: readonly string[];
  readonly suites: readonly string[];
  readonly tags: readonly string[];
  readonly excludeTags: readonly string[];
  /** Writes allowed: `--allow-writes`, or the embedded server (which always allows them). */
  readonly allowWrites: boolean;
}

export interface OperationsPlan {
  readonly operations: readonly OperationPlan[];
  readonly writesAllowed: boolean;
  /** Why the generic layer would not run, or undefined when it would. */
  readonly genericLeftOut: string | undefined;
}

export async function planOperations(spec: ApiSpec, options: OperationPlanOptions): Promise<OperationsPlan> {
  const selection = selectOperations(spec, options);
  const discovered = await discoverSuites(options.suitePaths);
  const suites = selectSuites(
    discovered.map((entry) => entry.suite),
    { ...options, embedded: false },
  );
  const genericLeftOut = genericLeftOutOf(suites.selected, suites.refused);
  return {
    operations: planCoverage({
      spec,
      operations: selection,
      genericLeftOut,
      writesAllowed: options.allowWrites,
    }),
    writesAllowed: options.allowWrites,
    genericLeftOut,
  };
}
