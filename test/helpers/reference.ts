/**
 * Starts the embedded reference server for a test and talks to it over real HTTPS (undici, trusting the
 * server's own certificate). Every response is validated against `specs/` through the loader: the spec is
 * the contract for both sides, so a response that does not match fails the test that received it.
 */
import { Agent, request } from "undici";
import { afterAll } from "vitest";
import {
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from "../../src/reference/server.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { ApiSpec } from "../../src/spec/types.ts";

let specPromise: Promise<ApiSpec> | undefined;
/** The bundled description, loaded once per test file. */
export function bundledSpec(): Promise<ApiSpec> {
  specPromise ??= loadSpec(bundledSpecPath);
  return specPromise;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
  readonly body: any;
  readonly text: string;
}

export interface CallOptions {
  /** JSON body (sent as application/json unless `contentType` says otherwise). */
  readonly json?: unknown;
  /** Form fields, sent as application/x-www-form-urlencoded. */
  readonly form?: Readonly<Record<string, string>>;
  /** A raw body with its content type. */
  readonly raw?: string;
  readonly contentType?: string;
  /** Bearer token; the server's ready `*` token when omitted, none when `null`. */
  readonly token?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** Skip validating this response against the spec (only for answers the spec cannot describe, e.g. 405). */
  readonly unchecked?: boolean;
}

export interface ReferenceHarness {
  readonly server: ReferenceServer;
  readonly spec: ApiSpec;
  /** Calls the API: `path` relative to the base URL (`/nodebalancers`), or absolute under the auth URL. */
  call(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
  /** Calls the login server: `path` relative to the auth URL (`/oauth/token`). */
  callAuth(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Checks one exchange against the spec; returns what is wrong (empty when it conforms). */
export function specMismatches(
  spec: ApiSpec,
  method: string,
  relativePath: string,
  response: ApiResponse,
): string[] {
  const match = spec.operations.match(method === "HEAD" ? "GET" : method, relativePath.split("?")[0]!);
  if (!match) return [`no operation in the spec for ${method} ${relativePath}`];
  const { operation } = match;
  const documented = operation.responses.some(
    (entry) =>
      entry.status === String(response.status) ||
      entry.status === `${String(response.status)[0]}XX` ||
      entry.status === "default",
  );
  if (!documented) return [`${operation.operationId}: status ${response.status} is not documented`];
  if (method === "HEAD" || response.status === 302) return [];
  const contentType = (response.headers["content-type"] ?? "").split(";")[0]!.trim();
  const validator = spec.validators.response(operation.operationId, response.status, contentType);
  if (!validator) return [];
  const outcome = validator(response.body);
  return outcome.valid
    ? []
    : outcome.issues.map(
        (issue) =>
          `${operation.operationId} ${response.status} ${issue.instancePath || "/"}: ${issue.message}`,
      );
}

/** Starts a reference server for the current test file (closed after all its tests). */
export async function startReference(options: ReferenceServerOptions = {}): Promise<ReferenceHarness> {
  const spec = await bundledSpec();
  const server = await createReferenceServer({ spec, ...options });
  const dispatcher = new Agent({
    connect: server.certificatePem ? { ca: server.certificatePem } : {},
    keepAliveTimeout: 1000,
  });
  afterAll(async () => {
    await dispatcher.close();
    await server.close();
  });

  async function send(origin: string, prefix: string, method: string, path: string, options: CallOptions) {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? server.token : options.token;
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] = options.contentType ?? "application/json";
    } else if (options.form !== undefined) {
      body = new URLSearchParams(options.form).toString();
      headers["content-type"] = options.contentType ?? "application/x-www-form-urlencoded";
    } else if (options.raw !== undefined) {
      body = options.raw;
      if (options.contentType) headers["content-type"] = options.contentType;
    }
    const answer = await request(`${origin}${prefix}${path}`, {
      method: method as "GET",
      headers,
      body,
      dispatcher,
    });
    const text = await answer.body.text();
    const responseHeaders = flatten(answer.headers);
    let parsed: unknown = text;
    if ((responseHeaders["content-type"] ?? "").includes("json") && text !== "") parsed = JSON.parse(text);
    const response: ApiResponse = { status: answer.statusCode, headers: responseHeaders, body: parsed, text };
    if (!options.unchecked) {
      const problems = specMismatches(spec, method, path, response);
      if (problems.length > 0) {
        throw new Error(
          `response does not match the spec:\n${problems.join("\n")}\nbody: ${text.slice(0, 2000)}`,
        );
      }
    }
    return response;
  }

  const origin = server.authUrl;
  return {
    server,
    spec,
    call: (method, path, options = {}) => send(origin, "/v4", method, path, options),
    callAuth: (method, path, options = {}) => send(origin, "", method, path, options),
  };
}
