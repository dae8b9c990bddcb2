/**
 * `rate-limit-headers`: `X-RateLimit-Limit`, `-Remaining` and `-Reset` are present, integers, and consistent:
 * 1 <= Limit, 0 <= Remaining <= Limit, and Reset (UTC epoch seconds, cloud-api-v4 "Limits") is neither in the past
 * of the moment the response arrived (1 s of clock skew allowed) nor more than a day ahead. Exact values differ per
 * account and endpoint (facts.md "Conventions"), so only presence, type and consistency are judged.
 *
 * Where they are required: on every response of the API server when the loaded description documents them on the
 * API's answers (the spec's conventions: "Every API response carries ..."; documented nowhere: skipped), 404s and
 * 429s included, documented status or not; on a login-server response only where that response documents them.
 * Headers that are present are always judged.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { parseInteger } from "./_internals/http-values.ts";
import { documentedResponse, requestLine, servedByApi } from "./_internals/spec-lookup.ts";
import type { CheckContext, CheckDefinition } from "./types.ts";

const names = {
  limit: "X-RateLimit-Limit",
  remaining: "X-RateLimit-Remaining",
  reset: "X-RateLimit-Reset",
} as const;
type Field = keyof typeof names;
const fields = Object.keys(names) as Field[];

const skewMs = 1000;
const dayMs = 86_400_000;

export const rateLimitHeaders: CheckDefinition = {
  id: "rate-limit-headers",
  title: "X-RateLimit-Limit, -Remaining and -Reset are present and consistent",
  check({ spec, operation, receivedAt }, exchange) {
    const { response } = exchange;
    const raw = Object.fromEntries(
      fields.map((field) => [field, response.headers[names[field].toLowerCase()]]),
    ) as Record<Field, string | undefined>;
    const missing = fields.filter((field) => raw[field] === undefined);
    const problems: string[] = [];
    if (missing.length === fields.length && !fields.some((field) => documented(spec, field))) {
      // A description that documents no rate-limit header does not promise them (its conventions are its own).
      return skipped("the description documents no X-RateLimit-* header on the API's answers");
    }
    if (missing.length > 0) {
      const required = isRequired(operation, response.status);
      if (required === undefined && missing.length === fields.length) {
        // Without an operation we cannot tell an API response from another server's (a proxy's, the login server's).
        return skipped(`no operation in the spec for ${requestLine(exchange)}`);
      }
      if (required === false && missing.length === fields.length) {
        // The login server documents no rate-limit headers; the API server's conventions do not bind it.
        return skipped(
          `${operation?.operationId} is served by ${operation?.serverUrl}, which documents no rate-limit headers`,
        );
      }
      if (required) problems.push(`missing ${missing.map((field) => names[field]).join(", ")}`);
    }

    const value: Partial<Record<Field, number>> = {};
    for (const field of fields) {
      const text = raw[field];
      if (text === undefined) continue;
      const parsed = parseInteger(text);
      if (parsed === undefined) problems.push(`${names[field]} "${text}" is not an integer`);
      else value[field] = parsed;
    }
    const { limit, remaining, reset } = value;
    if (limit !== undefined && limit < 1) problems.push(`${names.limit} ${limit} is below 1`);
    if (remaining !== undefined && remaining < 0)
      problems.push(`${names.remaining} ${remaining} is negative`);
    if (limit !== undefined && remaining !== undefined && remaining > limit) {
      problems.push(`${names.remaining} ${remaining} exceeds ${names.limit} ${limit}`);
    }
    if (reset !== undefined) {
      const resetMs = reset * 1000;
      if (resetMs < receivedAt - skewMs) {
        const hint = reset < 1e9 ? " (seconds until the reset instead of epoch seconds?)" : "";
        problems.push(`${names.reset} ${reset} is ${seconds(receivedAt - resetMs)} in the past${hint}`);
      } else if (resetMs > receivedAt + dayMs + skewMs) {
        const hint = reset > 1e11 ? " (milliseconds instead of epoch seconds?)" : "";
        problems.push(`${names.reset} ${reset} is more than a day ahead${hint}`);
      }
    }
    if (problems.length === 0) return passed;
    return failed(problems.join("; "), {
      expected: "Limit >= 1, 0 <= Remaining <= Limit, Reset within a day from now (epoch seconds)",
      actual: Object.fromEntries(fields.map((field) => [names[field], raw[field]])),
    });
  },
};

/**
 * Whether the headers must be there: true for the API server and for responses that document them, false for
 * another server's undocumented response, undefined when there is no operation to tell.
 */
function isRequired(
  operation: Parameters<typeof servedByApi>[0] | undefined,
  status: number,
): boolean | undefined {
  if (!operation) return undefined;
  if (servedByApi(operation)) return true;
  const declared = documentedResponse(operation, status)?.headers ?? [];
  return fields.some((field) => declared.some((h) => h.name === names[field].toLowerCase()));
}

function documented(spec: CheckContext["spec"], field: Field): boolean {
  return conventionsOf(spec).documentedHeaders.has(names[field].toLowerCase());
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}
