/**
 * The headers the description lists on every answer ("Limits", other response headers): `Content-Type:
 * application/json`; the CORS headers (allowed origin, methods HEAD GET OPTIONS POST PUT DELETE, request headers
 * Authorization Origin X-Requested-With Content-Type Accept X-Filter, exposed X-OAuth-Scopes X-Accepted-OAuth-Scopes
 * X-Status) on answers and on an OPTIONS preflight; `Vary` naming Authorization and X-Filter;
 * `Strict-Transport-Security`; and HEAD answering the GET's headers with no body. Read-only: it sends GET, HEAD and
 * OPTIONS only, to a sample of answers of every kind (public and authenticated, success and error).
 */
import { type CaseContext, defineSuite, type LiveResponse } from "../../src/index.ts";
import { apiOperations, headerList, type Operation, plainRead } from "./support/protocol.ts";

const corsMethods = ["head", "get", "options", "post", "put", "delete"];
const corsRequestHeaders = [
  "authorization",
  "origin",
  "x-requested-with",
  "content-type",
  "accept",
  "x-filter",
];
const corsExposed = ["x-oauth-scopes", "x-accepted-oauth-scopes", "x-status"];

interface Sample {
  readonly what: string;
  readonly response: LiveResponse;
}

function publicList(t: CaseContext): Operation | undefined {
  return apiOperations(t).find(
    (operation) =>
      operation.security.public &&
      operation.paginated &&
      operation.method === "get" &&
      !operation.pathTemplate.includes("{"),
  );
}

/** Answers of each kind: a public list, an authenticated read, 400, 401 and 404. */
async function samples(t: CaseContext): Promise<Sample[]> {
  const found: Sample[] = [];
  const list = publicList(t);
  if (list) {
    found.push({
      what: `${list.operationId} 200`,
      response: await t.api.get(list.pathTemplate, { token: null }),
    });
    found.push({
      what: `${list.operationId} with page_size 1 (400)`,
      response: await t.api.get(list.pathTemplate, { token: null, query: { page_size: 1 } }),
    });
    found.push({
      what: `an unknown item under ${list.pathTemplate} (404)`,
      response: await t.api.get(`${list.pathTemplate}/conform-unknown-0`, { token: null }),
    });
  }
  const read = plainRead(t);
  if (read) {
    found.push({ what: `${read.operationId} 200`, response: await t.api.get(read.pathTemplate) });
    found.push({
      what: `${read.operationId} without a token (401)`,
      response: await t.api.get(read.pathTemplate, { token: null }),
    });
  }
  if (found.length === 0) t.skip("the spec has neither a public list nor an authenticated read to sample");
  return found;
}

function missingFrom(listed: readonly string[], wanted: readonly string[]): string[] {
  return listed.includes("*") ? [] : wanted.filter((name) => !listed.includes(name));
}

function expectIncludes(
  t: CaseContext,
  name: string,
  header: string,
  wanted: readonly string[],
  sample: Sample,
): void {
  const value = sample.response.headers[header];
  const missing = missingFrom(headerList(value), wanted);
  t.expect(name, value !== undefined && missing.length === 0, {
    message: `${sample.what}: ${header} ${value === undefined ? "is missing" : `lacks ${missing.join(", ")}`}`,
    expected: wanted.join(", "),
    actual: value,
    response: sample.response,
  });
}

export default defineSuite({
  id: "headers",
  title: "Response headers: Content-Type, CORS, Vary, HSTS, HEAD",
  tags: ["read-only"],
  cases: [
    {
      id: "content-type",
      title: "Answers with a body say Content-Type: application/json",
      run: async (t) => {
        for (const sample of await samples(t)) {
          const value = sample.response.headers["content-type"];
          const essence = value?.split(";")[0]?.trim().toLowerCase();
          t.expect("Content-Type is application/json", essence === "application/json", {
            message: `${sample.what}: Content-Type is ${value ?? "missing"}`,
            expected: "application/json",
            actual: value,
            response: sample.response,
          });
        }
      },
    },
    {
      id: "cors-on-answers",
      title: "Answers carry the description's CORS headers",
      run: async (t) => {
        for (const sample of await samples(t)) {
          t.expect(
            "Access-Control-Allow-Origin is set",
            sample.response.headers["access-control-allow-origin"] !== undefined,
            {
              message: `${sample.what}: Access-Control-Allow-Origin is missing`,
              response: sample.response,
            },
          );
          expectIncludes(
            t,
            "Access-Control-Allow-Methods lists the API's methods",
            "access-control-allow-methods",
            corsMethods,
            sample,
          );
          expectIncludes(
            t,
            "Access-Control-Allow-Headers lists Authorization and X-Filter",
            "access-control-allow-headers",
            corsRequestHeaders,
            sample,
          );
          expectIncludes(
            t,
            "Access-Control-Expose-Headers lists the scope headers",
            "access-control-expose-headers",
            corsExposed,
            sample,
          );
        }
      },
    },
    {
      id: "cors-preflight",
      title: "An OPTIONS preflight allows the API's methods and headers, X-Filter included",
      run: async (t) => {
        const paths = [publicList(t)?.pathTemplate, plainRead(t)?.pathTemplate].filter(
          (path): path is string => path !== undefined,
        );
        if (paths.length === 0)
          return t.skip("the spec has no path without parameters to send a preflight to");
        const origin = "https://app.example.com";
        for (const path of paths) {
          const response = await t.api.request("OPTIONS", path, {
            token: null,
            headers: {
              origin,
              "access-control-request-method": "POST",
              "access-control-request-headers": "authorization, content-type, x-filter",
            },
          });
          const sample = { what: `OPTIONS ${path}`, response };
          t.expect("a preflight answers 2xx", response.status >= 200 && response.status < 300, {
            message: `${sample.what} answered ${response.status}`,
            expected: "200 or 204",
            actual: response.status,
            response,
          });
          const allowed = response.headers["access-control-allow-origin"];
          t.expect("a preflight allows the origin", allowed === "*" || allowed === origin, {
            message: `${sample.what}: Access-Control-Allow-Origin is ${allowed ?? "missing"}`,
            expected: `* or ${origin}`,
            actual: allowed,
            response,
          });
          expectIncludes(
            t,
            "a preflight allows the API's methods",
            "access-control-allow-methods",
            corsMethods,
            sample,
          );
          expectIncludes(
            t,
            "a preflight allows Authorization and X-Filter",
            "access-control-allow-headers",
            corsRequestHeaders,
            sample,
          );
        }
      },
    },
    {
      id: "vary",
      title: "Vary names Authorization and X-Filter",
      run: async (t) => {
        for (const sample of await samples(t)) {
          expectIncludes(
            t,
            "Vary names Authorization and X-Filter",
            "vary",
            ["authorization", "x-filter"],
            sample,
          );
        }
      },
    },
    {
      id: "strict-transport-security",
      title: "Strict-Transport-Security asks for HTTPS only, with a max-age",
      run: async (t) => {
        if (!t.target.baseUrl.startsWith("https:"))
          return t.skip("the target is plain HTTP: HSTS applies to HTTPS answers only (RFC 6797 §7.2)");
        for (const sample of await samples(t)) {
          const value = sample.response.headers["strict-transport-security"];
          const maxAge = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?/i.exec(value ?? "")?.[1];
          t.expect(
            "Strict-Transport-Security has a positive max-age",
            maxAge !== undefined && Number(maxAge) > 0,
            {
              message: `${sample.what}: Strict-Transport-Security is ${value ?? "missing"}`,
              expected: "max-age=<seconds>",
              actual: value,
              response: sample.response,
            },
          );
        }
      },
    },
    {
      id: "head",
      title: "HEAD answers the GET's status and headers, with no body",
      run: async (t) => {
        const pairs: [string, string, string | null | undefined][] = [];
        const list = publicList(t);
        if (list) pairs.push([list.operationId, list.pathTemplate, null]);
        const read = plainRead(t);
        if (read) pairs.push([read.operationId, read.pathTemplate, undefined]);
        if (pairs.length === 0)
          return t.skip("the spec has no GET without path parameters to compare with HEAD");
        const compared = [
          "content-type",
          "x-spec-version",
          "vary",
          "strict-transport-security",
          "access-control-allow-origin",
          "x-oauth-scopes",
          "x-accepted-oauth-scopes",
        ];
        for (const [operationId, path, token] of pairs) {
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
          const differing = compared.filter((name) => get.headers[name] !== head.headers[name]);
          t.expect("HEAD answers the GET's headers", differing.length === 0, {
            message: `${operationId}: HEAD and GET differ in ${differing.join(", ")}`,
            expected: Object.fromEntries(differing.map((name) => [name, get.headers[name]])),
            actual: Object.fromEntries(differing.map((name) => [name, head.headers[name]])),
            response: head,
          });
        }
      },
    },
  ],
});
