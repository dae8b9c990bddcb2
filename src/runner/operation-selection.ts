/**
 * Selection by operation (`--operation`, `--exclude-operation`, `--method`, `--path-pattern`): which of the description's
 * operations a run may send requests to. An operation is selected when it matches each kind of inclusion given
 * (one of the ids, one of the methods, one of the path patterns) and no exclusion. The generic layer requests only
 * selected operations (`apiOperations`); any case reaching a request to another one is skipped there, saying which
 * and why (`leftOutReason`). The end-of-run cleanup is no request of a case: it deletes what the run made whatever
 * the selection.
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";

export interface OperationSelectionOptions {
  readonly operations: readonly string[];
  readonly excludeOperations: readonly string[];
  /** HTTP methods, any case. */
  readonly methods: readonly string[];
  /** Path templates as the description writes them, `*` matching any run of characters (`/linode/*`). */
  readonly paths: readonly string[];
}

export interface OperationSelection {
  /** True when every operation is selected (no option given). */
  readonly everything: boolean;
  /** Why an operation is left out (naming the option), or undefined when it is selected (or unknown). */
  leftOutReason(operationId: string): string | undefined;
}

const knownMethods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** `/linode/*` → a RegExp over the whole template, `*` any characters, everything else literal. */
function pathPattern(pattern: string): RegExp {
  const literal = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${literal}$`);
}

/** Ids no operation has are refused, naming up to a few that look alike: a typo would otherwise select nothing. */
function refuseUnknownIds(ids: readonly string[], option: string, known: readonly string[]): void {
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length === 0) return;
  const alike = known.filter((id) =>
    unknown.some((wrong) => id.toLowerCase().includes(wrong.toLowerCase().slice(0, 6))),
  );
  throw new ConfigError(
    `unknown operation ${unknown.join(", ")} (${option}); ${alike.length > 0 ? `did you mean ${alike.slice(0, 5).join(", ")}? ` : ""}\`conform spec\` lists the description's operations`,
  );
}

/** The selection over `spec`'s operations; unknown ids and methods, and patterns matching nothing, are refused. */
export function selectOperations(spec: ApiSpec, options: OperationSelectionOptions): OperationSelection {
  const all = spec.operations.all();
  const ids = all.map((operation) => operation.operationId);
  refuseUnknownIds(options.operations, "--operation", ids);
  refuseUnknownIds(options.excludeOperations, "--exclude-operation", ids);
  const methods = options.methods.map((method) => method.toLowerCase());
  const badMethod = methods.find((method) => !knownMethods.has(method));
  if (badMethod !== undefined)
    throw new ConfigError(`--method ${badMethod}: use an HTTP method (GET, POST, PUT, DELETE, ...)`);
  const patterns = options.paths.map((path) => ({ path, regex: pathPattern(path) }));
  const nothing = patterns.find(({ regex }) => !all.some((operation) => regex.test(operation.pathTemplate)));
  if (nothing !== undefined)
    throw new ConfigError(
      `--path-pattern ${nothing.path} matches no path of the description (give a template such as /compute/instances/*)`,
    );
  const reasons = new Map<string, string>();
  const reasonFor = (operation: OperationInfo): string | undefined => {
    if (options.excludeOperations.includes(operation.operationId)) return "--exclude-operation";
    if (options.operations.length > 0 && !options.operations.includes(operation.operationId))
      return "not one of --operation";
    if (methods.length > 0 && !methods.includes(operation.method)) return "not one of --method";
    if (patterns.length > 0 && !patterns.some(({ regex }) => regex.test(operation.pathTemplate)))
      return "not under --path-pattern";
    return undefined;
  };
  for (const operation of all) {
    const reason = reasonFor(operation);
    if (reason !== undefined) reasons.set(operation.operationId, reason);
  }
  if (reasons.size === all.length)
    throw new ConfigError(
      "the operation selection (--operation, --exclude-operation, --method, --path-pattern) leaves no operation",
    );
  return {
    everything: reasons.size === 0,
    leftOutReason: (operationId) => reasons.get(operationId),
  };
}

/** Every operation selected: a run without selection options, and contexts made outside a run. */
export const everyOperation: OperationSelection = {
  everything: true,
  leftOutReason: () => undefined,
};
