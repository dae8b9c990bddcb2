/**
 * `secrets-not-returned`: secrets the API never shows again (facts.md): a profile's `ssl_key` is `<REDACTED>` when
 * set and null when not, an instance's `root_pass` is never shown, and an OAuth client's `secret` is shown in full
 * only by the POST that makes it (creation, a reset), `<REDACTED>` on every later read or update.
 *
 * The recorder has already replaced any other string under these keys by its own placeholder (the API's own
 * `<REDACTED>` is no secret, so it is kept): a value here that is a string other than `<REDACTED>` is one the
 * target sent in full. The body is searched a few levels deep (a list's items, a nested profile), no further.
 * @module
 */
import { describedRedactedForm } from "../core/redact.ts";
import { failed, passed } from "../core/result.ts";
import { apiOperationOf } from "./_internals/api-answer.ts";
import { isObject } from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

/** Keys never shown in full in an answer, and the answers that may show the `secret` of a client they make. */
const neverShown = ["ssl_key", "root_pass"];
const shownOnlyByItsPost = "secret";
const depthSearched = 4;

export const secretsNotReturned: CheckDefinition = {
  id: "secrets-not-returned",
  title: "ssl_key, root_pass and a client's later secret never come back in full",
  check(context, exchange) {
    const operation = apiOperationOf(context, exchange);
    const { response } = exchange;
    if (!operation || response.status < 200 || response.status >= 300 || !isObject(response.json))
      return undefined;
    const keys =
      exchange.request.method.toUpperCase() === "POST" ? neverShown : [...neverShown, shownOnlyByItsPost];
    const shown = shownSecret(response.json, keys);
    if (!shown) return passed;
    return failed(`${operation.operationId} shows ${shown} in full`, {
      expected: `${shown}: "${describedRedactedForm}"${shown === shownOnlyByItsPost ? "" : " or null"}`,
      actual: "a value (withheld)",
    });
  },
};

/** The first key of `keys` whose value (a few levels deep) is a string other than the API's redacted form. */
function shownSecret(body: Record<string, unknown>, keys: readonly string[]): string | undefined {
  let level: unknown[] = [body];
  for (let depth = 0; depth < depthSearched && level.length > 0; depth += 1) {
    const next: unknown[] = [];
    for (const value of level) {
      if (Array.isArray(value)) next.push(...value);
      else if (isObject(value)) {
        const key = keys.find(
          (name) => typeof value[name] === "string" && value[name] !== describedRedactedForm,
        );
        if (key) return key;
        next.push(...Object.values(value).filter((entry) => typeof entry === "object" && entry !== null));
      }
    }
    level = next;
  }
  return undefined;
}
