/**
 * Builders for check tests: recorded exchanges, response and operation descriptions, a stub spec whose response
 * validators are plain functions, and a check context. Defaults describe a clean `GET /v4/nodebalancers` answered
 * by the API server; each test states only what it changes.
 */
import { expect, it } from "vitest";
import type { AnsweredExchange, CheckContext, CheckDefinition } from "../../src/checks/types.ts";
import type { Exchange, RecordedResponse } from "../../src/core/exchange.ts";
import type { ApiSpec, OperationInfo, ResponseInfo, Validator } from "../../src/spec/types.ts";

/** Fixed "now" of check tests: 2025-01-02T03:04:05Z. */
export const receivedAt = Date.UTC(2025, 0, 2, 3, 4, 5);
export const specVersion = "4.176.0";

/** Headers of a clean API answer at {@link receivedAt}. */
export function apiHeaders(): Record<string, string> {
  return {
    "x-spec-version": specVersion,
    "x-ratelimit-limit": "400",
    "x-ratelimit-remaining": "399",
    "x-ratelimit-reset": String(Math.floor(receivedAt / 1000) + 60),
  };
}

export interface ExchangeInit {
  readonly method?: string;
  /** Path under `https://api.example.test/v4` (query allowed), or an absolute URL. */
  readonly path?: string;
  readonly status?: number;
  /** Response headers (lower-case names); `undefined` removes a default. Defaults: {@link apiHeaders}, plus
   * `content-type: application/json` when `json` is given. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Parsed body; `text` defaults to its serialisation. */
  readonly json?: unknown;
  /** Raw body text (when `json` is not given, the body is recorded as not JSON). */
  readonly text?: string;
  readonly truncated?: boolean;
}

/** A recorded exchange with a response. */
export function exchange(init: ExchangeInit = {}): AnsweredExchange {
  const hasJson = "json" in init && init.json !== undefined;
  const text = init.text ?? (hasJson ? JSON.stringify(init.json) : "");
  const headers: Record<string, string> = { ...apiHeaders() };
  if (hasJson) headers["content-type"] = "application/json";
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const response: RecordedResponse = {
    status: init.status ?? 200,
    headers,
    json: hasJson ? init.json : undefined,
    text,
    truncated: init.truncated ?? false,
    bytes: Buffer.byteLength(text),
  };
  return { ...base(init), response, error: undefined };
}

/** An exchange whose request failed at the transport level (no response). */
export function transportFailure(
  code = "UND_ERR_SOCKET",
  message = "other side closed",
  init: ExchangeInit = {},
): Exchange {
  return { ...base(init), response: undefined, error: { code, message } };
}

function base(init: ExchangeInit): Omit<Exchange, "response" | "error"> {
  const path = init.path ?? "/nodebalancers";
  return {
    id: 1,
    request: {
      method: init.method ?? "GET",
      url: /^https?:/.test(path) ? path : `https://api.example.test/v4${path}`,
      headers: { authorization: "Bearer <token>" },
      body: undefined,
    },
    timings: { startedAt: receivedAt - 20, headersMs: 15, totalMs: 20 },
    operationId: undefined,
    retries: 0,
  };
}

const standardHeaders = ["x-spec-version", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];
const headerSchemas: Record<string, { type: string }> = {
  "x-spec-version": { type: "string" },
  "x-ratelimit-limit": { type: "integer" },
  "x-ratelimit-remaining": { type: "integer" },
  "x-ratelimit-reset": { type: "integer" },
  "retry-after": { type: "integer" },
  "x-oauth-scopes": { type: "string" },
};

/**
 * A documented response. By default a JSON body with a schema and the API's four required headers; pass
 * `headers` as names (required, typed as the spec's components type them) or as full entries.
 */
export function responseInfo(
  status: string,
  init: Partial<Omit<ResponseInfo, "headers">> & {
    readonly headers?: readonly (string | ResponseInfo["headers"][number])[];
  } = {},
): ResponseInfo {
  const contentTypes = init.contentTypes ?? ["application/json"];
  return {
    status,
    description: init.description ?? `Response ${status}`,
    contentTypes,
    headers: (init.headers ?? standardHeaders).map((entry) =>
      typeof entry === "string" ? { name: entry, required: true, schema: headerSchemas[entry] } : entry,
    ),
    hasSchema: init.hasSchema ?? contentTypes.length > 0,
  };
}

/** An API-server operation (default `getNodeBalancers`, documenting 200, 400, 401, 403, 429 and 500). */
export function operation(init: Partial<OperationInfo> = {}): OperationInfo {
  return {
    operationId: "getNodeBalancers",
    method: "get",
    pathTemplate: "/nodebalancers",
    serverUrl: undefined,
    tags: [],
    summary: "",
    deprecated: false,
    security: {
      public: false,
      scopes: ["nodebalancers:read_only"],
      schemes: ["personalAccessToken", "oauth"],
    },
    parameters: [],
    paginated: true,
    filterableFields: [],
    requestBody: undefined,
    responses: [
      responseInfo("200"),
      responseInfo("400"),
      responseInfo("401"),
      responseInfo("403"),
      responseInfo("429", { headers: [...standardHeaders, "retry-after"] }),
      responseInfo("500"),
    ],
    ...init,
  };
}

/** The login server's form: `GET {auth_url}/oauth/authorize` answering text/html, no API headers documented. */
export function loginFormOperation(): OperationInfo {
  return operation({
    operationId: "getOAuthAuthorize",
    pathTemplate: "/oauth/authorize",
    serverUrl: "{auth_url}",
    security: { public: true, scopes: [], schemes: [] },
    paginated: false,
    responses: [
      responseInfo("200", { contentTypes: ["text/html"], headers: [] }),
      responseInfo("400", { headers: [] }),
      responseInfo("500", { headers: [] }),
    ],
  });
}

/** The login server's redirect: `POST {auth_url}/oauth/authorize` answering 302 with `Location`, no content. */
export function loginRedirectOperation(): OperationInfo {
  return operation({
    operationId: "postOAuthAuthorize",
    method: "post",
    pathTemplate: "/oauth/authorize",
    serverUrl: "{auth_url}",
    security: { public: true, scopes: [], schemes: [] },
    paginated: false,
    responses: [
      responseInfo("302", {
        contentTypes: [],
        headers: [{ name: "location", required: true, schema: { type: "string" } }],
      }),
      responseInfo("400", { headers: [] }),
      responseInfo("401", { headers: [] }),
    ],
  });
}

/** Picks the validator for a response, as `ValidatorCache.response` does. */
export type ValidatorLookup = (
  operationId: string,
  status: number,
  contentType?: string,
) => Validator | undefined;

/** A spec with the given operations and response validators (none by default). */
export function stubSpec(
  init: {
    readonly version?: string;
    readonly operations?: readonly OperationInfo[];
    readonly validators?: ValidatorLookup;
  } = {},
): ApiSpec {
  const operations = init.operations ?? [operation()];
  const lookup = init.validators ?? (() => undefined);
  return {
    source: "stub.yaml",
    dialect: "openapi-3.1",
    title: "Stub",
    version: init.version ?? specVersion,
    servers: [{ url: "{base_url}", variables: { base_url: "https://api.example.test/v4" } }],
    document: {},
    operations: {
      all: () => operations,
      byId: (id) => operations.find((entry) => entry.operationId === id),
      match: () => undefined,
    },
    validators: {
      response: lookup,
      request: () => undefined,
      parameter: () => undefined,
      unknownFormats: () => [],
      compiledCount: () => 0,
    },
  };
}

/**
 * A check context: the stub spec, the default operation (pass `operation: undefined` for none), {@link receivedAt};
 * `headersKept` makes it a recording's.
 */
export function context(
  init: {
    readonly spec?: ApiSpec;
    readonly operation?: OperationInfo | undefined;
    readonly receivedAt?: number;
    /** When the request was sent; default: 20 ms before `receivedAt`, as {@link exchange}'s timings say. */
    readonly sentAt?: number;
    /** A recording that kept only these response headers on its answers (as a go-vcr cassette may). */
    readonly headersKept?: readonly string[];
  } = {},
): CheckContext {
  return {
    spec: init.spec ?? stubSpec(),
    operation: "operation" in init ? init.operation : operation(),
    sentAt: init.sentAt ?? (init.receivedAt ?? receivedAt) - 20,
    receivedAt: init.receivedAt ?? receivedAt,
    ...(init.headersKept ? { recording: { headersKept: new Set(init.headersKept) } } : {}),
  };
}

/** One row of a check's table: what it is given and the outcome it must return (matched as a subset). */
export interface CheckCase {
  readonly name: string;
  readonly exchange: AnsweredExchange;
  /** Default: {@link context}() */
  readonly context?: CheckContext;
  readonly outcome: Partial<
    Record<"status" | "message" | "reason" | "severity" | "expected" | "actual", unknown>
  >;
}

/** Runs a check's table: each row is one test named after it. */
export function runCheckCases(definition: CheckDefinition, cases: readonly CheckCase[]): void {
  it.each(cases)("$name", (row) => {
    expect(definition.check(row.context ?? context(), row.exchange, definition.state?.())).toMatchObject(
      row.outcome,
    );
  });
  it("its table has a case that passes and one that fails", () => {
    const statuses = new Set(cases.map((row) => row.outcome.status));
    expect(statuses).toContain("passed");
    expect(statuses).toContain("failed");
  });
}
