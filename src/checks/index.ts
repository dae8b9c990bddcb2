/**
 * The registry of built-in checks: one entry per file in this directory, keyed by its id (= file name = config key
 * = CLI name). Adding a check: write `src/checks/<id>.ts` exporting a {@link CheckDefinition}, register it here,
 * and give it a table test in `test/checks/<id>.test.ts` with a case that passes and one that fails
 * (docs/checks.md). Every check here is applied by `conform run`, `proxy` and `verify` alike.
 * @module
 */
import { authStatus } from "./auth-status.ts";
import { bodyMatchesSchema } from "./body-matches-schema.ts";
import { contentTypeJson } from "./content-type-json.ts";
import { corsHeaders } from "./cors-headers.ts";
import { createdTimeUtc } from "./created-time-utc.ts";
import { documentedHeaders } from "./documented-headers.ts";
import { errorBodyShape } from "./error-body-shape.ts";
import { hstsHeader } from "./hsts-header.ts";
import { invalidRequestRefused } from "./invalid-request-refused.ts";
import { notAServerError } from "./not-a-server-error.ts";
import { observedCounts } from "./observed-counts.ts";
import { observedDeprecated } from "./observed-deprecated.ts";
import { observedErrorField } from "./observed-error-field.ts";
import { observedFilter } from "./observed-filter.ts";
import { observedFilterComplete } from "./observed-filter-complete.ts";
import { observedGoneAfterDelete } from "./observed-gone-after-delete.ts";
import { observedPages } from "./observed-pages.ts";
import { observedRateLimit } from "./observed-rate-limit.ts";
import { observedReachesState } from "./observed-reaches-state.ts";
import { observedReadBack } from "./observed-read-back.ts";
import { observedScopes } from "./observed-scopes.ts";
import { observedStartsEmpty } from "./observed-starts-empty.ts";
import { observedStaysOff } from "./observed-stays-off.ts";
import { observedWriteRecorded } from "./observed-write-recorded.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";
import { retryAfterOn429 } from "./retry-after-on-429.ts";
import { secretsNotReturned } from "./secrets-not-returned.ts";
import { specVersionHeader } from "./spec-version-header.ts";
import { statusCodeDocumented } from "./status-code-documented.ts";
import { tokenLifetime } from "./token-lifetime.ts";
import type { CheckDefinition } from "./types.ts";
import { validRequestAccepted } from "./valid-request-accepted.ts";
import { varyHeader } from "./vary-header.ts";

export type { Check, CheckContext, CheckDefinition } from "./types.ts";

export const builtinChecks = {
  "not-a-server-error": notAServerError,
  "status-code-documented": statusCodeDocumented,
  "content-type-json": contentTypeJson,
  "body-matches-schema": bodyMatchesSchema,
  "error-body-shape": errorBodyShape,
  "spec-version-header": specVersionHeader,
  "rate-limit-headers": rateLimitHeaders,
  "retry-after-on-429": retryAfterOn429,
  "documented-headers": documentedHeaders,
  "valid-request-accepted": validRequestAccepted,
  "invalid-request-refused": invalidRequestRefused,
  "observed-filter": observedFilter,
  "observed-pages": observedPages,
  "observed-error-field": observedErrorField,
  "observed-rate-limit": observedRateLimit,
  "observed-scopes": observedScopes,
  "observed-deprecated": observedDeprecated,
  "auth-status": authStatus,
  "cors-headers": corsHeaders,
  "vary-header": varyHeader,
  "hsts-header": hstsHeader,
  "secrets-not-returned": secretsNotReturned,
  "created-time-utc": createdTimeUtc,
  "observed-read-back": observedReadBack,
  "observed-gone-after-delete": observedGoneAfterDelete,
  "observed-reaches-state": observedReachesState,
  "observed-counts": observedCounts,
  "observed-filter-complete": observedFilterComplete,
  "observed-starts-empty": observedStartsEmpty,
  "observed-stays-off": observedStaysOff,
  "observed-write-recorded": observedWriteRecorded,
  "token-lifetime": tokenLifetime,
} as const satisfies Record<string, CheckDefinition>;

export type BuiltinCheckId = keyof typeof builtinChecks;

/** Every built-in check, in registration order (the order reports list them). */
export function listChecks(): readonly CheckDefinition[] {
  return Object.values(builtinChecks);
}

export function isBuiltinCheckId(id: string): id is BuiltinCheckId {
  return Object.hasOwn(builtinChecks, id);
}
