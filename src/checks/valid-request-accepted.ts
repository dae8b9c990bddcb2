/**
 * `valid-request-accepted`: a request the description allows is not refused. It judges only requests whose intent
 * says so (`intent.mode` `positive`: the generic layer's, or a client's read from the description in `proxy` and
 * `verify`); any other exchange passes, having nothing to say.
 * A 2xx or 3xx passes; a 5xx fails (the server failed on a valid request). A 4xx fails, except where it says
 * nothing of the request's validity, each skipped with the reason: 401/403 (the token), 429 (the rate limit), a 404
 * where a path parameter was drawn from its schema (the resource may really be absent), a refusal naming only
 * fields whose values the description does not pin down (free text, references to other resources: its rules for
 * them are prose at best), and a request the
 * generator marked undecidable.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { errorFieldsOf, firstErrorReason, requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

export const validRequestAccepted: CheckDefinition = {
  id: "valid-request-accepted",
  title: "A request the description allows is not refused",
  check({ spec }, exchange) {
    const intent = exchange.request.intent;
    const { status, json } = exchange.response;
    if (intent?.mode !== "positive" || status < 400) return passed;
    const envelope = conventionsOf(spec).errorEnvelope;
    const reason = firstErrorReason(json, envelope);
    const answered = `${status}${reason ? ` (${reason})` : ""}`;
    const line = `${intent.operationId}: ${requestLine(exchange)}`;
    if (status >= 500)
      return failed(`${line}: a valid request (${intent.scenario}) answered a server error ${answered}`, {
        expected: "2xx",
        actual: status,
      });
    if (status === 401 || status === 403)
      return skipped(`${line} answered ${status}: refused for its token, which says nothing of the request`);
    if (status === 429) return skipped(`${line} answered 429: rate-limited, not judged`);
    if (status === 404 && (intent.drawnPath?.length ?? 0) > 0)
      return skipped(
        `${line} answered 404: path parameter ${intent.drawnPath!.join(", ")} was drawn from its schema (no value found in the target's answers), so the resource may really be absent`,
      );
    if (intent.undecidable) return skipped(`${line} answered ${answered}: ${intent.undecidable}`);
    const named = errorFieldsOf(json, envelope);
    const free = new Set(intent.unpinned ?? []);
    if (free.size > 0 && named.every((field) => free.has(field)))
      return skipped(
        `${line} answered ${answered}${named.length > 0 ? ` naming ${named.join(", ")}` : ""}: the request sent values the description does not pin down (${[...free].join(", ")}), whose refusal follows rules it states in prose at best`,
      );
    return failed(
      `${line}: a request the description allows (${intent.scenario}) was refused with ${answered}${named.length > 0 ? `, naming ${named.join(", ")}` : ""}`,
      { expected: "2xx", actual: status },
    );
  },
};
