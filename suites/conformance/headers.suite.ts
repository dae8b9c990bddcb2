/**
 * The headers the description lists on every answer ("Limits", other response headers): `Content-Type:
 * application/json`; the CORS headers (allowed origin, methods HEAD GET OPTIONS POST PUT DELETE, request headers
 * Authorization Origin X-Requested-With Content-Type Accept X-Filter, exposed X-OAuth-Scopes X-Accepted-OAuth-Scopes
 * X-Status) on answers and on an OPTIONS preflight; `Vary` naming Authorization and X-Filter;
 * `Strict-Transport-Security`; and HEAD answering the GET's headers with no body. Read-only: it sends GET, HEAD and
 * OPTIONS only, to a sample of answers of every kind (public and authenticated, success and error).
 */
import {
  answeredLabel,
  apiFacts,
  apiOperations,
  type CaseContext,
  conventionsOf,
  defineSuite,
  expectHeader,
  filterHeader,
  headerList,
  isSuccess,
  type LiveResponse,
  type Operation,
  pathOf,
  plainRead,
  type RequestOptions,
  topLevelLists,
  unknownPath,
} from "../../src/index.ts";

const { cors } = apiFacts;
const allowOrigin = "Access-Control-Allow-Origin";

interface Sample {
  readonly what: string;
  readonly response: LiveResponse;
}

function publicList(t: CaseContext): Operation | undefined {
  return topLevelLists(t).find((operation) => operation.security.public);
}

/** The list's single-item read: the GET whose path is the list's plus one parameter. */
function itemOf(t: CaseContext, list: Operation): Operation | undefined {
  return apiOperations(t).find(
    (operation) =>
      operation.method === "get" &&
      operation.pathTemplate.startsWith(list.pathTemplate) &&
      /^\/\{[^/}]+\}$/.test(operation.pathTemplate.slice(list.pathTemplate.length)),
  );
}

/**
 * Answers meant to be of each kind: a public list, an authenticated read, 400, 401 and 404. Each is named by what was
 * asked and the status that came back (`an unknown item under /regions, answered 200`), never by the status meant.
 */
async function samples(t: CaseContext): Promise<Sample[]> {
  const found: Sample[] = [];
  const sample = async (what: string, path: string, options: RequestOptions = {}) => {
    const response = await t.api.get(path, options);
    found.push({ what: answeredLabel(what, response), response });
  };
  const list = publicList(t);
  if (list) {
    await sample(list.operationId, pathOf(list), { token: null });
    // A page size just below the description's smallest is refused.
    const tooSmall = conventionsOf(t.spec).pageSize.min - 1;
    await sample(`${list.operationId} with page_size ${tooSmall}`, pathOf(list), {
      token: null,
      query: { page_size: tooSmall },
      breaks: `query.page_size: ${tooSmall} is below its minimum`,
    });
    const item = itemOf(t, list);
    if (item) await sample(`an unknown item under ${list.pathTemplate}`, unknownPath(item), { token: null });
  }
  const read = plainRead(t);
  if (read) {
    await sample(read.operationId, pathOf(read));
    await sample(`${read.operationId} without a token`, pathOf(read), { token: null });
  }
  if (found.length === 0) t.skip("the spec has neither a public list nor an authenticated read to sample");
  return found;
}

/** A header list to check: [assertion, header, the names it must list]. */
type Listing = readonly [string, string, readonly string[]];

/** Asserts that a header of the sample lists every name wanted (or `*`, the CORS wildcard). */
function expectIncludes(t: CaseContext, { what, response }: Sample, [name, header, wanted]: Listing) {
  const value = response.headers[header];
  const listed = headerList(value);
  const missing = listed.includes("*") ? [] : wanted.filter((entry) => !listed.includes(entry));
  t.expect(name, value !== undefined && missing.length === 0, {
    message: `${what}: ${header} ${value === undefined ? "is missing" : `lacks ${missing.join(", ")}`}`,
    expected: wanted.join(", "),
    actual: value,
    response,
  });
}

const [methods, allowHeaders] = ["access-control-allow-methods", "access-control-allow-headers"];
/** The CORS lists every answer names. */
const corsLists: Listing[] = [
  ["Access-Control-Allow-Methods lists the API's methods", methods, cors.methods],
  ["Access-Control-Allow-Headers lists Authorization and X-Filter", allowHeaders, cors.requestHeaders],
  ["Access-Control-Expose-Headers lists the scope headers", "access-control-expose-headers", cors.exposed],
];
/** What a preflight allows. */
const preflightLists: Listing[] = [
  ["a preflight allows the API's methods", methods, cors.methods],
  ["a preflight allows Authorization and X-Filter", allowHeaders, cors.requestHeaders],
];

/** Headers HEAD must answer as GET does (not the rate-limit ones: they change from one answer to the next). */
const sameOnHead = [
  "content-type",
  "x-spec-version",
  "vary",
  "strict-transport-security",
  "access-control-allow-origin",
  "x-oauth-scopes",
  "x-accepted-oauth-scopes",
];

export default defineSuite({
  id: "headers",
  title: "Response headers: Content-Type, CORS, Vary, HSTS, HEAD",
  tags: ["read-only"],
  cases: [
    {
      id: "content-type",
      title: "Answers with a body say Content-Type: application/json",
      run: async (t) => {
        const json = (value?: string) => value?.split(";")[0]?.trim().toLowerCase() === "application/json";
        for (const { what, response } of await samples(t)) {
          const where = { where: what, expected: "application/json" };
          expectHeader(t, "Content-Type is application/json", response, "Content-Type", json, where);
        }
      },
    },
    {
      id: "cors-on-answers",
      title: "Answers carry the description's CORS headers",
      run: async (t) => {
        for (const sample of await samples(t)) {
          const set = (value?: string) => value !== undefined;
          const where = { where: sample.what };
          expectHeader(t, "Access-Control-Allow-Origin is set", sample.response, allowOrigin, set, where);
          for (const listing of corsLists) expectIncludes(t, sample, listing);
        }
      },
    },
    {
      id: "cors-preflight",
      title: "An OPTIONS preflight allows the API's methods and headers, X-Filter included",
      run: async (t) => {
        const reads = [publicList(t), plainRead(t)].filter((read): read is Operation => read !== undefined);
        if (reads.length === 0)
          return t.skip("the spec has no path without parameters to send a preflight to");
        const origin = "https://app.example.com";
        for (const path of reads.map((read) => pathOf(read))) {
          const response = await t.api.request("OPTIONS", path, {
            token: null,
            headers: {
              origin,
              "access-control-request-method": "POST",
              "access-control-request-headers": `authorization, content-type, ${filterHeader(t).toLowerCase()}`,
            },
          });
          const sample = { what: `OPTIONS ${path}`, response };
          t.expect("a preflight answers 2xx", isSuccess(response), {
            message: `${sample.what} answered ${response.status}`,
            expected: "200 or 204",
            actual: response.status,
            response,
          });
          const allows = (value?: string) => value === "*" || value === origin;
          const where = { where: sample.what, expected: `* or ${origin}` };
          expectHeader(t, "a preflight allows the origin", response, allowOrigin, allows, where);
          for (const listing of preflightLists) expectIncludes(t, sample, listing);
        }
      },
    },
    {
      id: "vary",
      title: "Vary names Authorization and X-Filter",
      run: async (t) => {
        for (const sample of await samples(t)) {
          expectIncludes(t, sample, ["Vary names Authorization and X-Filter", "vary", apiFacts.vary]);
        }
      },
    },
    {
      id: "strict-transport-security",
      title: "Strict-Transport-Security asks for HTTPS only, with a max-age",
      run: async (t) => {
        if (!t.target.baseUrl.startsWith("https:"))
          return t.skip("the target is plain HTTP: HSTS applies to HTTPS answers only (RFC 6797 §7.2)");
        const name = "Strict-Transport-Security has a positive max-age";
        const maxAge = (value?: string) =>
          Number(/(?:^|;)\s*max-age\s*=\s*"?(\d+)"?/i.exec(value ?? "")?.[1]);
        for (const { what, response } of await samples(t)) {
          const where = { where: what, expected: "max-age=<seconds>" };
          expectHeader(t, name, response, "Strict-Transport-Security", (value) => maxAge(value) > 0, where);
        }
      },
    },
    {
      id: "head",
      title: "HEAD answers the GET's status and headers, with no body",
      run: async (t) => {
        const list = publicList(t);
        const read = plainRead(t);
        const pairs = [list && ([list, null] as const), read && ([read, undefined] as const)].filter(
          (p) => !!p,
        );
        if (pairs.length === 0)
          return t.skip("the spec has no GET without path parameters to compare with HEAD");
        for (const [operation, token] of pairs) {
          const path = pathOf(operation);
          const get = await t.api.get(path, { token });
          const head = await t.api.request("HEAD", path, { token });
          t.expect("HEAD answers the GET's status", head.status === get.status, {
            message: `HEAD ${path} answered ${head.status}, GET ${get.status}`,
            expected: get.status,
            actual: head.status,
            response: head,
          });
          t.expect("HEAD has no body", head.text === "", {
            message: `HEAD ${path} sent ${head.text.length} bytes of body`,
            actual: head.text.slice(0, 100),
            response: head,
          });
          const differing = sameOnHead.filter((name) => get.headers[name] !== head.headers[name]);
          const of = (response: LiveResponse) =>
            Object.fromEntries(differing.map((name) => [name, response.headers[name]]));
          t.expect("HEAD answers the GET's headers", differing.length === 0, {
            message: `${operation.operationId}: HEAD and GET differ in ${differing.join(", ")}`,
            expected: of(get),
            actual: of(head),
            response: head,
          });
        }
      },
    },
  ],
});
