/**
 * A case context with no target behind it, for the toolkit's tests: a loaded description (the bundled one, or one
 * with its paths renamed), an API answered by a function of the request, and records of what the toolkit did with
 * it (requests, cleanups, assertions, logs, secrets, the reproduction). `skip` throws {@link Skipped}.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Reproduction } from "../../src/core/events.ts";
import type { Exchange } from "../../src/core/exchange.ts";
import type { ApiClient, CaseContext, LiveResponse, RequestOptions } from "../../src/index.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { ApiSpec } from "../../src/spec/types.ts";

export class Skipped extends Error {}

export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly options: RequestOptions;
}

/** What the fake API answers: a status and a JSON body (headers optional). */
export interface Answer {
  readonly status: number;
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function liveResponse(answer: Answer): LiveResponse {
  return {
    status: answer.status,
    headers: answer.headers ?? {},
    text: answer.json === undefined ? "" : JSON.stringify(answer.json),
    json: answer.json,
    exchange: {} as Exchange,
  };
}

export interface FakeCase {
  readonly t: CaseContext;
  readonly sent: SentRequest[];
  readonly cleanups: { readonly description: string; readonly path: string }[];
  readonly expectations: {
    readonly name: string;
    readonly ok: boolean;
    readonly details: Readonly<Record<string, unknown>>;
  }[];
  readonly logs: string[];
  readonly secrets: string[];
  reproduction: Reproduction | undefined;
}

export interface FakeCaseInit {
  readonly propertyRuns?: number;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly progress?: (label: string, run: number, of: number) => void;
  /** false: a target of the user's (replay lines name its base URL). */
  readonly embedded?: boolean;
}

const specs = new Map<string, Promise<ApiSpec>>();

/** The bundled description, or one with `sed s#from#to#g` applied to it (operationIds unchanged). */
export function specWith(rename?: readonly [string, string]): Promise<ApiSpec> {
  const key = rename ? rename.join("→") : "bundled";
  let spec = specs.get(key);
  if (!spec) {
    if (!rename) spec = loadSpec(bundledSpecPath);
    else {
      const file = join(tmpdir(), `conform-bodies-${process.pid}-${specs.size}.yaml`);
      writeFileSync(file, readFileSync(bundledSpecPath, "utf8").replaceAll(rename[0], rename[1]));
      spec = loadSpec(file);
    }
    specs.set(key, spec);
  }
  return spec;
}

export function fakeCase(
  spec: ApiSpec,
  answer: (request: SentRequest) => Answer = () => ({ status: 404 }),
  init: FakeCaseInit = {},
): FakeCase {
  const record: FakeCase = {
    t: undefined!,
    sent: [],
    cleanups: [],
    expectations: [],
    logs: [],
    secrets: [],
    reproduction: undefined,
  };
  const request = async (method: string, path: string, options: RequestOptions = {}) => {
    const sent = { method, path, options };
    record.sent.push(sent);
    return liveResponse(answer(sent));
  };
  const api: ApiClient = {
    request,
    get: (path, options) => request("GET", path, options),
    post: (path, json, options) => request("POST", path, { ...options, json }),
    put: (path, json, options) => request("PUT", path, { ...options, json }),
    delete: (path, options) => request("DELETE", path, options),
  };
  let labels = 0;
  const t: CaseContext = {
    api,
    auth: api,
    spec,
    target: {
      baseUrl: "https://127.0.0.1:1/v4",
      authUrl: "https://127.0.0.1:1",
      embedded: init.embedded ?? true,
      writesAllowed: true,
    },
    seed: 1,
    options: init.options ?? {},
    hooks: init.progress ? { progress: init.progress } : {},
    propertyRuns: init.propertyRuns,
    signal: new AbortController().signal,
    expect: (name, condition, details = {}) => {
      record.expectations.push({ name, ok: condition, details });
      return condition;
    },
    skip: (reason) => {
      throw new Skipped(reason);
    },
    label: (name) => `conform-test-${name}-${++labels}`,
    cleanup: (description, path) => void record.cleanups.push({ description, path }),
    secret: (value) => void record.secrets.push(value),
    reproduce: (reproduction) => {
      record.reproduction = reproduction;
    },
    shared: new Map(),
    log: (message) => void record.logs.push(message),
  };
  return Object.assign(record, { t });
}
