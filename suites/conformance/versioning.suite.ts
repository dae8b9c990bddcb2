/**
 * Versioning and protocol conventions ("Versioning", "Status codes", "General facts"):
 * - the base URL ends in the major-version segment (`v4`) and `X-Spec-Version` on answers of every kind is the
 *   spec's `info.version` (MAJOR.MINOR.PATCH, same major);
 * - a deprecated operation answers 299 with a `warnings` array (no request can be made to answer 202 on demand, so
 *   that answer's `warnings` is not judged here);
 * - every single-resource operation answers 404 `Not found` for unknown ids;
 * - methods a path does not support answer neither 2xx nor 5xx;
 * - plain `http://` to an HTTPS target is refused or redirected, never served;
 * - times stay UTC whatever the profile's `timezone` ("General facts"): with the profile set to another zone, a
 *   new token's `created` is written in UTC (no designator, `Z` or `+00:00`) and is now, its `expiry` the instant
 *   sent; the timezone is set back at the end.
 * Read-only but for three parts that need writes (a successful call of the deprecated operation, writes to
 * unknown ids, the profile's timezone), which run on the embedded target or with --allow-writes and are skipped
 * otherwise.
 */
import {
  answeredLabel,
  apiFacts,
  apiOperations,
  type CaseContext,
  conventionsOf,
  defineSuite,
  errorReasons,
  expectHeader,
  expectStatus,
  isSuccess,
  type LiveResponse,
  type Operation,
  pathOf,
  plainRead,
  publicRead,
  type RequestOptions,
  requireDocumentedHeader,
  requireWrites,
  topLevelLists,
  unknownPath,
} from "../../src/index.ts";
import { recipes } from "./support/deprecated-recipes.ts";
import { timesUnderAnotherZone } from "./support/utc-times.ts";

const { notFoundReason } = apiFacts;
const release = /^(\d+)\.(\d+)\.(\d+)$/;
const methods = ["GET", "PUT", "POST", "DELETE"];

/** A request body the operation's schema accepts, to reach the handler: `{}` when valid; undefined otherwise. */
function emptyBodyIfValid(t: CaseContext, operation: Operation): { json?: unknown } | undefined {
  if (!operation.requestBody) return {};
  const validate = t.spec.validators.request(operation.operationId, "application/json");
  if (!validate) return undefined;
  return validate({}).valid ? { json: {} } : undefined;
}

const warningsOf = (response: LiveResponse) =>
  (response.json as { warnings?: unknown } | undefined)?.warnings;
/** A non-empty array of strings ("Status codes": 299 and 202). */
const areWarnings = (value: unknown) =>
  Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === "string");

export default defineSuite({
  id: "versioning",
  title: "Versioning, status conventions, unknown ids, methods and HTTPS",
  tags: ["read-only"],
  cases: [
    {
      id: "major-version",
      title: "The base URL ends in the spec's major version (v4)",
      run: (t) => {
        const match = release.exec(t.spec.version);
        if (!match) return t.skip(`the spec's info.version "${t.spec.version}" is not MAJOR.MINOR.PATCH`);
        const path = new URL(t.target.baseUrl).pathname.replace(/\/$/, "");
        // The base URL as given, not its path alone: a base URL at the root would show an empty path.
        t.expect("the base URL ends in /v<major>", path.endsWith(`/v${match[1]}`), {
          message: `the base URL ${t.target.baseUrl} has the path ${path || "/"}, not …/v${match[1]}`,
          expected: `…/v${match[1]}`,
          actual: t.target.baseUrl,
        });
      },
    },
    {
      id: "spec-version",
      title: "X-Spec-Version on answers of every kind is the spec's info.version",
      run: async (t) => {
        requireDocumentedHeader(t, "X-Spec-Version");
        const answers: [string, LiveResponse][] = [];
        // Each answer named by what was asked and the status that came back, not the status meant.
        const answer = async (what: string, path: string, options: RequestOptions = {}) => {
          const response = await t.api.get(path, options);
          answers.push([answeredLabel(what, response), response]);
        };
        const open = publicRead(t);
        if (open) {
          await answer(open.operationId, pathOf(open), { token: null });
          const unknown = `${pathOf(open)}/conform-unknown-0/conform-unknown-1`;
          await answer("an unknown path", unknown, { token: null });
        }
        const read = plainRead(t);
        if (read) {
          await answer(read.operationId, pathOf(read));
          await answer(`${read.operationId} without a token`, pathOf(read), { token: null });
        }
        const list = topLevelLists(t)[0];
        if (list) {
          const token = list.security.public ? null : undefined;
          const tooSmall = conventionsOf(t.spec).pageSize.min - 1;
          await answer(`${list.operationId} with page_size ${tooSmall}`, pathOf(list), {
            token,
            query: { page_size: tooSmall },
            breaks: `query.page_size: ${tooSmall} is below its minimum`,
          });
        }
        if (answers.length === 0) return t.skip("the spec has no read without path parameters");
        const version = t.spec.version;
        for (const [where, response] of answers) {
          const same = (value?: string) => value === version;
          const context = { where, expected: version };
          expectHeader(t, "X-Spec-Version is the spec's version", response, "X-Spec-Version", same, context);
        }
      },
    },
    {
      id: "deprecated-299",
      title: "A deprecated operation answers 299 with a warnings array",
      run: async (t) => {
        const deprecated = apiOperations(t).filter((operation) => operation.deprecated);
        if (deprecated.length === 0) return t.skip("the spec marks no operation deprecated");
        const alias = deprecated.find((operation) => operation.operationId in recipes);
        if (!alias) {
          const ids = deprecated.map((operation) => operation.operationId).join(", ");
          return t.skip(`no recipe to call ${ids} successfully`);
        }
        requireWrites(t, `calling ${alias.operationId} successfully changes the account`);
        const response = await recipes[alias.operationId]!(t, alias);
        if (!response) return;
        const message = `${alias.operationId} answered ${response.status}`;
        expectStatus(t, "a deprecated operation answers 299", response, 299, message);
        t.expect("a deprecated operation's answer carries warnings", areWarnings(warningsOf(response)), {
          expected: "a non-empty warnings array of strings",
          actual: warningsOf(response),
          response,
        });
      },
    },
    {
      id: "unknown-ids-404",
      title: "Every single-resource operation answers 404 Not found for unknown ids",
      run: async (t) => {
        const singles = apiOperations(t).filter((operation) => operation.pathTemplate.includes("{"));
        if (singles.length === 0) return t.skip("the spec has no operation with a path parameter");
        let skippedWrites = 0;
        for (const operation of singles) {
          if (operation.method !== "get" && !t.target.writesAllowed) {
            skippedWrites += 1;
            continue;
          }
          const body = emptyBodyIfValid(t, operation);
          if (!body) {
            t.log(
              `${operation.operationId}: no body both valid and empty, so the 404 cannot be reached without real content`,
            );
            continue;
          }
          const [method, path] = [operation.method.toUpperCase(), unknownPath(operation)];
          const token = operation.security.public ? null : undefined;
          const response = await t.api.request(method, path, { token, ...body });
          const message = `${operation.operationId} ${path} answered ${response.status}`;
          if (!expectStatus(t, "an unknown id answers 404", response, 404, message)) continue;
          const reasons = errorReasons(t, response);
          t.expect(`404 says ${notFoundReason}`, reasons.includes(notFoundReason), {
            expected: notFoundReason,
            actual: reasons,
            response,
          });
        }
        if (skippedWrites > 0)
          t.log(`${skippedWrites} writes to unknown ids left out: writes are not allowed on this target`);
      },
    },
    {
      id: "unsupported-methods",
      title: "Methods a path does not support answer neither 2xx nor 5xx",
      run: async (t) => {
        const byPath = Map.groupBy(apiOperations(t), (operation) => operation.pathTemplate);
        for (const [template, operations] of byPath) {
          const declared = new Set(operations.map((operation) => operation.method.toUpperCase()));
          // PATCH is in no operation of the API; the other undeclared methods could act if a target supported them
          // silently, so they go only where writes are allowed (GET never acts).
          const undeclared = ["PATCH", ...methods.filter((method) => !declared.has(method))].filter(
            (method) => method === "PATCH" || method === "GET" || t.target.writesAllowed,
          );
          const path = unknownPath(operations[0]!);
          for (const method of undeclared) {
            const response = await t.api.request(method, path, method === "GET" ? {} : { json: {} });
            const name = "an unsupported method answers neither 2xx nor 5xx";
            t.expect(name, !isSuccess(response) && response.status < 500, {
              message: `${method} ${template} answered ${response.status}`,
              expected: "4xx",
              actual: response.status,
              response,
            });
          }
        }
      },
    },
    {
      id: "times-utc",
      title: "Times stay UTC whatever the profile's timezone",
      tags: ["writes"],
      run: timesUnderAnotherZone,
    },
    {
      id: "plain-http-refused",
      title: "Plain http:// to the HTTPS target is refused or redirected, never served",
      run: async (t) => {
        const base = new URL(t.target.baseUrl);
        if (base.protocol !== "https:") return t.skip("the target itself is plain HTTP");
        const plain = new URL(t.target.baseUrl);
        plain.protocol = "http:";
        const read = publicRead(t) ?? plainRead(t);
        const url = `${plain.toString().replace(/\/$/, "")}${read ? pathOf(read) : ""}`;
        let response: LiveResponse;
        try {
          response = await t.api.get(url, { token: null, retry: false });
        } catch (error) {
          // No HTTP answer at all: the connection was refused or closed. That is refusing.
          t.log(`plain HTTP got no answer: ${(error as Error)?.message ?? error}`);
          t.expect("plain HTTP is not served", true);
          return;
        }
        const location = response.headers.location ?? "";
        t.expect("plain HTTP is not served", !isSuccess(response), {
          message: `http:// answered ${response.status}: the API is served without TLS`,
          expected: "a refusal or a redirect to https://",
          actual: response.status,
          response,
        });
        if (response.status >= 300 && response.status < 400) {
          t.expect("plain HTTP redirects to https://", location.startsWith("https://"), {
            expected: "Location: https://…",
            actual: location,
            response,
          });
        }
      },
    },
  ],
});
