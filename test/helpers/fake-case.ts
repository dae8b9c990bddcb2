/**
 * A case context with no target behind it, for toolkit unit tests: it records what the case asserted, skipped,
 * logged and gave as its reproduction; its clients answer with what `answer` says.
 */
import type { Reproduction } from "../../src/core/events.ts";
import type { LiveResponse } from "../../src/runner/http-client.ts";
import type { ApiClient, CaseContext, RequestOptions } from "../../src/runner/suite-api.ts";
import type { ApiSpec } from "../../src/spec/types.ts";

export interface Asserted {
  readonly name: string;
  readonly ok: boolean;
  readonly details: Record<string, unknown>;
}

export class Skipped extends Error {}

export interface FakeCase {
  readonly t: CaseContext;
  readonly asserted: Asserted[];
  readonly logs: string[];
  readonly requests: { method: string; path: string; options: RequestOptions }[];
  reproduction: Reproduction | undefined;
}

/** An answer as a suite sees it. */
export function liveResponse(
  status: number,
  json?: unknown,
  headers: Record<string, string> = {},
): LiveResponse {
  const text = json === undefined ? "" : JSON.stringify(json);
  return { status, headers, json, text } as LiveResponse;
}

export function fakeCase(
  spec: ApiSpec,
  init: {
    readonly answer?: (method: string, path: string, options: RequestOptions) => LiveResponse;
    readonly propertyRuns?: number;
    readonly options?: Record<string, unknown>;
    readonly progress?: (label: string, run: number, of: number) => void;
    readonly embedded?: boolean;
  } = {},
): FakeCase {
  const fake: FakeCase = {
    asserted: [],
    logs: [],
    requests: [],
    reproduction: undefined,
  } as unknown as FakeCase;
  const request = async (method: string, path: string, options: RequestOptions = {}) => {
    fake.requests.push({ method, path, options });
    return (init.answer ?? (() => liveResponse(200, {})))(method, path, options);
  };
  const client: ApiClient = {
    request,
    get: (path, options) => request("GET", path, options),
    post: (path, json, options) => request("POST", path, { ...options, json }),
    put: (path, json, options) => request("PUT", path, { ...options, json }),
    delete: (path, options) => request("DELETE", path, options),
  };
  const t: CaseContext = {
    api: client,
    auth: client,
    spec,
    target: {
      baseUrl: "https://api.example.test/v4",
      authUrl: "https://login.example.test",
      embedded: init.embedded ?? true,
      writesAllowed: true,
    },
    seed: 7,
    options: init.options ?? {},
    hooks: init.progress ? { progress: init.progress } : {},
    propertyRuns: init.propertyRuns,
    signal: new AbortController().signal,
    expect(name, condition, details = {}) {
      fake.asserted.push({ name, ok: condition, details });
      return condition;
    },
    skip(reason) {
      throw new Skipped(reason);
    },
    label: (name) => `conform-test-${name}`,
    cleanup: () => {},
    secret: () => {},
    reproduce(reproduction) {
      fake.reproduction = reproduction;
    },
    shared: new Map(),
    log(message) {
      fake.logs.push(message);
    },
  };
  (fake as { t: CaseContext }).t = t;
  return fake;
}
