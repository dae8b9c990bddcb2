/**
 * Spec validation issues turned into the API's error items: one per problem, each naming its field.
 * @module
 */
import type { ValidationIssue } from "../../spec/types.ts";
import type { ApiErrorItem } from "./reply.ts";

export function issueToError(issue: ValidationIssue): ApiErrorItem {
  if (issue.keyword === "required") return { reason: `${issue.field} is required`, field: issue.field };
  if (issue.keyword === "dependentRequired") {
    return {
      reason: `${issue.field} is required together with ${String(issue.params.property)}`,
      field: issue.field,
    };
  }
  if (issue.field === "") return { reason: `Request body ${issue.message}` };
  return { reason: `${issue.field} ${issue.message}`, field: issue.field };
}

/** ajv may report one problem through several keywords (anyOf branches): keep one error per field and reason. */
export function issuesToErrors(issues: readonly ValidationIssue[]): ApiErrorItem[] {
  const seen = new Set<string>();
  const errors: ApiErrorItem[] = [];
  for (const issue of issues) {
    const error = issueToError(issue);
    const key = `${error.field ?? ""}\u0000${error.reason}`;
    if (!seen.has(key)) {
      seen.add(key);
      errors.push(error);
    }
  }
  return errors;
}
