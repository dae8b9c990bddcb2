/**
 * `invalid-request-refused`: a request that breaks a rule of the description is refused with a 4xx. It judges
 * only requests whose intent says which rules they break (`intent.mode` `negative`: the generic layer's, or a
 * client's read from the description in `proxy` and `verify`); any
 * other exchange passes, having nothing to say. A 2xx or 3xx fails (the target took what it must refuse), a 5xx
 * fails (it crashed on it instead of refusing it), and every failure names the rules broken and where (body
 * pointer, query or path parameter). A 401/403 or 429 is skipped: the request was turned away before its content
 * was read. A request the generator marked undecidable is skipped with the reason.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { brokenRulesLine, requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

export const invalidRequestRefused: CheckDefinition = {
  id: "invalid-request-refused",
  title: "A request breaking a rule of the description is refused with a 4xx",
  check(_context, exchange) {
    const intent = exchange.request.intent;
    const { status } = exchange.response;
    if (intent?.mode !== "negative") return passed;
    const line = `${intent.operationId}: ${requestLine(exchange)}`;
    const broken = brokenRulesLine(exchange) || intent.scenario;
    if (status === 401 || status === 403 || status === 429)
      return skipped(
        `${line} answered ${status} before reading the request: whether it refuses ${broken} is unknown`,
      );
    if (status >= 400 && status < 500) return passed;
    if (intent.undecidable) return skipped(`${line} answered ${status}: ${intent.undecidable}`);
    const what = status >= 500 ? "answered a server error" : "accepted it";
    return failed(`${line}: a request breaking ${broken} ${what} (${status})`, {
      expected: "4xx",
      actual: status,
    });
  },
};
