/**
 * The write operations the body suites exercise on this target, each with its concrete path, request schema and
 * domain constraints. An operation that cannot be written to here (a path parameter no fixture fills, a value the
 * target cannot be given) is logged with the reason and left out; a case with none left is skipped.
 * @module
 */
import type { BodySchema } from "../../../src/generators/request-body.ts";
import type { CaseContext } from "../../../src/index.ts";
import type { OperationInfo } from "../../../src/spec/types.ts";
import { type DomainConstraints, domainConstraints } from "./bodies-domain.ts";
import { type BodyFixtures, pathValues } from "./bodies-fixtures.ts";
import { concretePath, jsonWriteOperations, requestSchema } from "./bodies-operations.ts";

export interface WriteTarget {
  readonly operation: OperationInfo;
  readonly path: string;
  readonly schema: BodySchema;
  readonly constraints: DomainConstraints;
}

export function writeTargets(t: CaseContext, fixtures: BodyFixtures): WriteTarget[] {
  const targets: WriteTarget[] = [];
  for (const operation of jsonWriteOperations(t)) {
    const where = concretePath(operation, pathValues(fixtures));
    if ("missing" in where) {
      t.log(
        `${operation.operationId} left out: no resource of this suite fills its path parameter {${where.missing}}`,
      );
      continue;
    }
    const constraints = domainConstraints(t, operation.operationId, fixtures);
    if (constraints.unavailable) {
      t.log(`${operation.operationId} left out: ${constraints.unavailable}`);
      continue;
    }
    targets.push({ operation, path: where.path, schema: requestSchema(t, operation), constraints });
  }
  if (targets.length === 0) t.skip("no write operation with a JSON body can be exercised on this target");
  return targets;
}
