/**
 * A case context with no target behind it, for the toolkit's tests: a loaded description (the bundled one, or one
 * with its paths renamed), an API and a login server answered by one function of the request, and records of what
 * the toolkit did with it (requests and the answers given, cleanups, assertions, logs, secrets, the reproduction).
 * `skip` throws {@link Skipped}.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Reproduction } from "../../src/core/events.ts";
import type { Exchange } from "../../src/core/exchange.ts";
import type {
  ApiClient,
  CaseContext,
  LiveResponse,
  PropertyReplay,
  RequestOptions,
  SuiteHooks,
} from "../../src/index.ts";
import { clientOf } from "../../src/runner/case-context.ts";
import { neededReason, sharedValues } from "../../src/runner/suite-api.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { ApiSpec } from "../../src/spec/types.ts";

export class Skipped extends Error {}

export interface SentRequest {
  /** Which of the case's clients sent it: the API's (`t.api`) or the login server's (`t.auth`). */
  readonly client: "api" | "auth";
  readonly method: string;
  readonly path: string;
  readonly options: RequestOptions;
}

/** What the fake API answers: a status and a JSON body, or a body that is not JSON (`text`); headers optional. */
export interface Answer {
  readonly status: number;
  readonly json?: unknown;
  /** A body read as text only (an HTML page, say): the response has no `json`. */
  readonly text?: string;
  /** The body as JSON whatever its label (a JSON answer labelled `text/plain`); `json` when not given. */
  readonly parsed?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function liveResponse(answer: Answer): LiveResponse {
  return {
    status: answer.status,
    headers: answer.headers ?? {},
    text: answer.text ?? (answer.json === undefined ? "" : JSON.stringify(answer.json)),
    json: answer.json,
    parsed: answer.parsed ?? answer.json,
    exchange: {} as Exchange,
  };
}

export interface FakeCase {
  readonly t: CaseContext;
  readonly sent: SentRequest[];
  /** What the fake answered, in the order of `sent`. */
  readonly responses: LiveResponse[];
  readonly cleanups: { readonly description: string; readonly path: string }[];
  /** What `t.cleanupUnidentified` was told: made, but not identified by its answer. */
  readonly unidentified: { readonly description: string; readonly label: string | undefined }[];
  readonly expectations: {
    readonly name: string;
    readonly ok: boolean;
    readonly details: Readonly<Record<string, unknown>>;
  }[];
  readonly logs: string[];
  readonly secrets: string[];
  reproduction: Reproduction | undefined;
}

/** What `fake` sent, as method, path and JSON body (for tests of writes). */
export function sentJson(fake: FakeCase): { method: string; path: string; json: unknown }[] {
  return fake.sent.map(({ method, path, options }) => ({ method, path, json: options.json }));
}

export interface FakeCaseInit {
  readonly propertyRuns?: number;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly progress?: (label: string, run: number, of: number) => void;
  /** false: a target of the user's (replay lines name its base URL). */
  readonly embedded?: boolean;
  /** false: a target where cases that change the account skip. */
  readonly writesAllowed?: boolean;
  /** The base URL (`t.target.baseUrl`; default https://127.0.0.1:1/v4). */
  readonly baseUrl?: string;
  /** The login server's URL (`t.target.authUrl`). */
  readonly authUrl?: string;
  /** The program's hooks (a login driver, say); `progress` adds to them. */
  readonly hooks?: SuiteHooks;
  /** The suite's values shared between its cases: give one map to several fakes to make them one suite's. */
  readonly shared?: Map<string, unknown>;
  /** The run's signal (abort its controller to interrupt the run). */
  readonly signal?: AbortSignal;
  /** The suite and case ids (default `suite`/`case`). */
  readonly suiteId?: string;
  readonly caseId?: string;
  /** Assertion names the run's baseline knows (`t.knownFailure`). */
  readonly knownFailures?: readonly string[];
  /** The one property the run replays. */
  readonly replay?: PropertyReplay;
}

const specs = new Map<string, Promise<ApiSpec>>();

type Rename = readonly [from: string, to: string];

/**
 * The bundled description, or one with `sed s#from#to#g` applied to it for each rename in turn (operationIds
 * unchanged).
 */
export function specWith(...renames: readonly (Rename | undefined)[]): Promise<ApiSpec> {
  const applied = renames.filter((rename) => rename !== undefined);
  const key = applied.length ? applied.map((rename) => rename.join("→")).join(";") : "bundled";
  let spec = specs.get(key);
  if (!spec) {
    if (!applied.length) spec = loadSpec(bundledSpecPath);
    else {
      const file = join(tmpdir(), `conform-bodies-${process.pid}-${specs.size}.yaml`);
      const text = applied.reduce(
        (renamed, [from, to]) => renamed.replaceAll(from, to),
        readFileSync(bundledSpecPath, "utf8"),
      );
      writeFileSync(file, text);
      spec = loadSpec(file).finally(() => rmSync(file, { force: true }));
    }
    specs.set(key, spec);
  }
  return spec;
}

/** `answer` answers every request, or is called with each request and its number (from 0, over both clients). */
export function fakeCase(
  spec: ApiSpec,
  answer: Answer | ((request: SentRequest, index: number) => Answer) = { status: 404 },
  init: FakeCaseInit = {},
): FakeCase {
  const answerOf = typeof answer === "function" ? answer : () => answer;
  const record: FakeCase = {
    t: undefined!,
    sent: [],
    responses: [],
    cleanups: [],
    unidentified: [],
    expectations: [],
    logs: [],
    secrets: [],
    reproduction: undefined,
  };
  const client = (name: SentRequest["client"]): ApiClient =>
    clientOf(async (method, path, options = {}) => {
      const sent = { client: name, method, path, options };
      record.sent.push(sent);
      const response = liveResponse(answerOf(sent, record.sent.length - 1));
      record.responses.push(response);
      return response;
    });
  let labels = 0;
  const shared = sharedValues(init.shared ?? new Map());
  const t: CaseContext = {
    suiteId: init.suiteId ?? "suite",
    caseId: init.caseId ?? "case",
    replay: init.replay,
    api: client("api"),
    auth: client("auth"),
    spec,
    target: {
      baseUrl: init.baseUrl ?? "https://127.0.0.1:1/v4",
      authUrl: init.authUrl ?? "https://127.0.0.1:1",
      embedded: init.embedded ?? true,
      writesAllowed: init.writesAllowed ?? true,
    },
    seed: 1,
    options: init.options ?? {},
    hooks: { ...init.hooks, ...(init.progress ? { progress: init.progress } : {}) },
    propertyRuns: init.propertyRuns,
    signal: init.signal ?? new AbortController().signal,
    expect: (name, condition, details = {}) => {
      record.expectations.push({ name, ok: condition, details });
      return condition;
    },
    skip: (reason) => {
      throw new Skipped(reason);
    },
    label: (name) => `conform-test-${name}-${++labels}`,
    cleanup: (description, path) => void record.cleanups.push({ description, path }),
    cleanupUnidentified: (description, label) => void record.unidentified.push({ description, label }),
    secret: (value) => void record.secrets.push(value),
    reproduce: (reproduction) => {
      record.reproduction = reproduction;
    },
    shared,
    needs: (key) => shared.get(key) ?? t.skip(neededReason(key)),
    // Every read is sent: a fake case stands alone (the run's memo is the engine's, tested on its own).
    reuse: (_key, read) => read(),
    log: (message) => void record.logs.push(message),
    knownFailure: (name) => init.knownFailures?.includes(name) ?? false,
    thinEvidence: (reason) => void record.logs.push(`thin evidence: ${reason}`),
    isOperationSelected: () => true,
  };
  return Object.assign(record, { t });
}
