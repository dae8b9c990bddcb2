/**
 * `hsts-header`: every success of the API over HTTPS carries `Strict-Transport-Security` with a positive `max-age`
 * (the description: requests must use HTTPS, and the header asks for HTTPS only; facts.md: on real answers).
 * An answer over plain HTTP is not judged: a browser ignores the header there (RFC 6797 §7.2); nor is an error
 * answer: the real service's recorded 404s mostly carry none. A recording that kept the header on none of its
 * answers is skipped.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { apiOperationOf } from "./_internals/api-answer.ts";
import { type CheckDefinition, notRecorded } from "./types.ts";

const name = "strict-transport-security";

export const hstsHeader: CheckDefinition = {
  id: "hsts-header",
  title: "Every HTTPS success carries Strict-Transport-Security with a max-age",
  check(context, exchange) {
    const { status } = exchange.response;
    if (!apiOperationOf(context, exchange) || status < 200 || status >= 300) return undefined;
    if (!/^https:/i.test(exchange.request.url)) return undefined;
    const value = exchange.response.headers[name];
    if (value === undefined && notRecorded(context, name))
      return skipped(
        "the recording kept Strict-Transport-Security on none of its answers: it cannot be judged",
      );
    const maxAge = Number(/(?:^|;)\s*max-age\s*=\s*"?(\d+)"?/i.exec(value ?? "")?.[1]);
    if (maxAge > 0) return passed;
    return failed(
      `Strict-Transport-Security ${value === undefined ? "is missing" : "has no positive max-age"}`,
      {
        expected: "max-age=<seconds>",
        actual: value,
      },
    );
  },
};
