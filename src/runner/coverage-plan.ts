/**
 * The coverage plan: before any request, what each operation of the description will get from the generic layer
 * (the suites tagged `generic`), or why it gets nothing, from the description and the selection options alone.
 * `conform spec --plan` prints it; a run starts its coverage table from it (`coverage-tally.ts`).
 * @module
 */
import type { NotRequestedReason, OperationPlan } from "../core/events.ts";
import { unbuildableRequest } from "../generators/operation-request.ts";
import { requestSchemaOf } from "../generators/request-body.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import type { OperationSelection } from "./operation-selection.ts";

/** The tag of the suites that request every operation of the description (`operations.suite.ts`). */
export const genericTag = "generic";

export interface CoveragePlanInput {
  readonly spec: ApiSpec;
  readonly operations: OperationSelection;
  /** Why no suite of the generic layer runs, or undefined when one does. */
  readonly genericLeftOut: string | undefined;
  readonly writesAllowed: boolean;
}

const readMethods = new Set(["get", "head", "options", "trace"]);

/** Without writes, a write naming no resource (no path parameter) is the one the layer holds back. */
const namesNoResource = (operation: OperationInfo, writesAllowed: boolean) =>
  !writesAllowed && !readMethods.has(operation.method) && !operation.pathTemplate.includes("{");

/**
 * Mirrors `probeWrite` (`src/toolkit/operation-requests.ts`): without writes, a write naming no resource and
 * taking no body is the one request the layer never sends, for it could act on something real.
 */
function writeLeftOut(spec: ApiSpec, operation: OperationInfo, writesAllowed: boolean): string | undefined {
  if (!namesNoResource(operation, writesAllowed) || requestSchemaOf(spec, operation.operationId))
    return undefined;
  return "a write naming no resource and taking no body could act on something real: sent only with --allow-writes";
}

/** What the coverage table says of a requested operation whose valid request is withheld on purpose. */
export const writesWithheld =
  "writes need --allow-writes: a write naming no resource gets only invalid requests without them";

/**
 * Mirrors `probeWrite` too: without writes, a write naming no resource that takes a body gets only a body of the
 * wrong JSON type (refused before anything is read), never a valid request (a create would make something real).
 */
function validWithheldOf(operation: OperationInfo, writesAllowed: boolean): string | undefined {
  return namesNoResource(operation, writesAllowed) ? writesWithheld : undefined;
}

function leftOut(
  input: CoveragePlanInput,
  operation: OperationInfo,
): { reason: NotRequestedReason; detail: string } | undefined {
  if (operation.serverUrl !== undefined)
    return {
      reason: "other-server",
      detail: `its own server ${operation.serverUrl} is not the API's: set aside (only a suite that needs it sends it, to --auth-url)`,
    };
  const deselected = input.operations.leftOutReason(operation.operationId);
  if (deselected !== undefined)
    return { reason: "deselected", detail: `the selection leaves it out (${deselected})` };
  if (input.genericLeftOut !== undefined)
    return { reason: "suite-not-selected", detail: input.genericLeftOut };
  const unbuildable = unbuildableRequest(input.spec, operation);
  if (unbuildable !== undefined) return { reason: "unbuildable", detail: unbuildable };
  const write = writeLeftOut(input.spec, operation, input.writesAllowed);
  if (write !== undefined) return { reason: "writes-not-allowed", detail: write };
  return undefined;
}

/** Every operation of the description, in its order, with what the generic layer will send it or why not. */
export function planCoverage(input: CoveragePlanInput): OperationPlan[] {
  return input.spec.operations.all().map((operation) => {
    const notRequested = leftOut(input, operation);
    const withheld = notRequested ? undefined : validWithheldOf(operation, input.writesAllowed);
    return {
      operationId: operation.operationId,
      method: operation.method.toUpperCase(),
      path: operation.pathTemplate,
      ...(notRequested ? { notRequested } : {}),
      ...(withheld ? { validWithheld: withheld } : {}),
    };
  });
}

/** Why the generic layer does not run among `suites` (selected) and `refused`, or undefined when it does. */
export function genericLeftOutOf(
  suites: readonly { readonly tags: readonly string[] }[],
  refused: readonly { readonly suite: { readonly tags: readonly string[] }; readonly reason: string }[],
): string | undefined {
  if (suites.some((suite) => suite.tags.includes(genericTag))) return undefined;
  const refusal = refused.find((entry) => entry.suite.tags.includes(genericTag));
  if (refusal) return `the generic layer's suite was refused: ${refusal.reason}`;
  return `no suite tagged \`${genericTag}\` is selected (--suite, --tag, --exclude-tag, --shard)`;
}
