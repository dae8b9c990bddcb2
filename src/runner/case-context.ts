/**
 * Builds the `t` a suite case receives: API clients bound to the target and the run's token, assertions that
 * record results instead of throwing, skip, labels, the cleanup ledger, secrets and reproduction info.
 * @module
 */
import { BoundedMemo } from "../core/bounded-memo.ts";
import { SuiteRequestError } from "../core/errors.ts";
import type { Reproduction } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import type { SecretValues } from "../core/redact.ts";
import type { CheckResult } from "../core/result.ts";
import { failed, passed } from "../core/result.ts";
import { conventionsOf } from "../spec/conventions.ts";
import type { ApiSpec } from "../spec/types.ts";
import type { LiveResponse } from "./contracts.ts";
import type { HttpClient } from "./http-client.ts";
import type { LabelMaker } from "./labels.ts";
import type { CleanupLedger } from "./ledger.ts";
import type { OperationSelection } from "./operation-selection.ts";
import { expectsRefusal } from "./refusal-tally.ts";
import { type RequestToCheck, requestConformance } from "./request-conformance.ts";
import type { SharedReads } from "./shared-reads.ts";
import type {
  ApiClient,
  CaseContext,
  PropertyReplay,
  RequestOptions,
  SuiteHooks,
  TargetInfo,
} from "./suite-api.ts";
import { neededReason, sharedValues } from "./suite-api.ts";

/** Thrown by `t.skip()`: ends the case as skipped. */
export class CaseSkipped extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

export interface CaseRecorder {
  /**
   * Called for every exchange of the case (checks run there); `foreignCredential`: sent with another credential
   * than the client's own (no token, an unknown one, another scope's), so a refusal is what it means to get.
   */
  onExchange(exchange: Exchange, foreignCredential: boolean): void;
  /** The case asserted that this exchange's answer is a refusal (`expected: 404`): it was meant to be refused. */
  refusalExpected?(exchange: Exchange): void;
  /** Records one of the suite's own assertions, and the exchange it is about. */
  assert(result: CheckResult, exchange: Exchange | undefined): void;
  /** The case's latest exchange: a failed assertion points at it unless told otherwise. */
  lastExchange: Exchange | undefined;
  reproduction: Reproduction | undefined;
  readonly logs: string[];
}

export interface CaseContextDeps {
  readonly client: HttpClient;
  readonly spec: ApiSpec;
  readonly target: TargetInfo;
  readonly token: string | undefined;
  readonly seed: number;
  readonly options: Readonly<Record<string, unknown>>;
  readonly hooks: SuiteHooks;
  readonly propertyRuns: number | undefined;
  readonly replay: PropertyReplay | undefined;
  readonly suiteId: string;
  readonly caseId: string;
  readonly signal: AbortSignal;
  readonly labels: LabelMaker;
  readonly ledger: CleanupLedger;
  readonly secrets: SecretValues;
  readonly shared: Map<string, unknown>;
  /** The run's shared idempotent reads (`t.reuse`). */
  readonly reads: SharedReads;
  /** Whether the run's baseline holds the group of a failed assertion of this name (none: never). */
  readonly knownFailure?: (assertionName: string) => boolean;
  /** Hears a case say it judges on thin evidence (`<suite>/<case>: <reason>`), for the run's warnings. */
  readonly thinEvidence?: (note: string) => void;
  /** The operations the case may request (`--operation` and the like); a request to another skips the case. */
  readonly operations?: OperationSelection;
  /** Which operation a request hits (needed only with a selection). */
  readonly matchOperation?: (method: string, url: string) => string | undefined;
}

/**
 * URLs as the WHATWG parser writes them, by the text they were built from: a run sends the same few paths and
 * queries again and again, and parsing one costs more than finding it.
 */
const normalizedUrls = new BoundedMemo<string, string>(4096);
const normalizedUrl = (text: string) => new URL(text).toString();

/** Characters application/x-www-form-urlencoded writes as they are: a query made only of them needs no encoder. */
const formSafe = /^[\w.*-]*$/;

/** `url?query` as URLSearchParams writes the query; plain names and values (most of them) are joined as they are. */
function withSearch(url: string, entries: readonly [string, unknown][]): string {
  if (entries.length === 0) return url;
  let search = "";
  for (const [key, value] of entries) {
    const text = String(value);
    if (!formSafe.test(key) || !formSafe.test(text))
      return `${url}?${new URLSearchParams(entries.map(([name, item]): [string, string] => [name, String(item)]))}`;
    search += `${search === "" ? "" : "&"}${key}=${text}`;
  }
  return `${url}?${search}`;
}

/** The absolute URL of a request: `path` relative to `base` (or absolute), `query` set over any the path has. */
export function buildUrl(base: string, path: string, query: RequestOptions["query"]): string {
  const absolute = /^https?:\/\//.test(path) ? path : `${base.replace(/\/$/, "")}${path}`;
  const entries = query ? Object.entries(query) : [];
  // The common case (no query in the path) in one parse; set() re-serialises the URL for each parameter.
  if (!absolute.includes("?") && !absolute.includes("#"))
    return normalizedUrls.get(withSearch(absolute, entries), normalizedUrl);
  const url = new URL(absolute);
  for (const [key, value] of entries) url.searchParams.set(key, String(value));
  return url.toString();
}

/** One request checker per description and target (a run has one of each; its memory is the checker's). */
const checkers = new WeakMap<ApiSpec, WeakMap<TargetInfo, ReturnType<typeof requestConformance>>>();

function checkerFor(spec: ApiSpec, target: TargetInfo): ReturnType<typeof requestConformance> {
  let byTarget = checkers.get(spec);
  if (!byTarget) {
    byTarget = new WeakMap();
    checkers.set(spec, byTarget);
  }
  let checker = byTarget.get(target);
  if (!checker) {
    checker = requestConformance(spec, target);
    byTarget.set(target, checker);
  }
  return checker;
}

function payloadOf(options: RequestOptions): RequestToCheck["payload"] {
  if (options.json !== undefined) return { kind: "json", value: options.json };
  if (options.form !== undefined) return { kind: "form", fields: options.form };
  if (options.body !== undefined) return { kind: "raw", text: options.body };
  return undefined;
}

function contentTypeOf(headers: Readonly<Record<string, string>>): string | undefined {
  const type = headers["content-type"];
  if (type !== undefined) return type;
  for (const name in headers) if (name.toLowerCase() === "content-type") return headers[name];
  return undefined;
}

/** Why a request must not go (its operation left out of the selection), or undefined. */
function leftOutRequest(deps: CaseContextDeps, method: string, url: string): string | undefined {
  const selection = deps.operations;
  if (selection === undefined || selection.everything || deps.matchOperation === undefined) return undefined;
  const operationId = deps.matchOperation(method, url);
  const reason = operationId === undefined ? undefined : selection.leftOutReason(operationId);
  return reason === undefined
    ? undefined
    : `it requests ${operationId} (${method.toUpperCase()}), left out of the operation selection (${reason})`;
}

function makeClient(
  deps: CaseContextDeps,
  recorder: CaseRecorder,
  base: string,
  defaultToken: string | undefined,
): ApiClient {
  // The description's filter header (`X-Filter` as described), named lower-case as every header set here.
  const filterHeader = conventionsOf(deps.spec).filterHeader.toLowerCase();
  // One observer for each kind of request of the client (not a closure per request).
  const observeOwn = (exchange: Exchange) => recorder.onExchange(exchange, false);
  const observeForeign = (exchange: Exchange) => recorder.onExchange(exchange, true);
  const request = (method: string, path: string, options: RequestOptions = {}): Promise<LiveResponse> => {
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    const token = options.token === undefined ? defaultToken : options.token;
    // The client's own credential (the run's token on the API) unless the case sends another or none.
    const foreign = (token ?? undefined) !== defaultToken || hasAuthorization(options.headers);
    if (token) headers.authorization ??= `Bearer ${token}`;
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    } else if (options.form !== undefined) {
      body = new URLSearchParams(options.form).toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
    if (options.filter !== undefined) {
      headers[filterHeader] =
        typeof options.filter === "string" ? options.filter : JSON.stringify(options.filter);
    }
    const url = buildUrl(base, path, options.query);
    const leftOut = leftOutRequest(deps, method, url);
    if (leftOut !== undefined) return Promise.reject(new CaseSkipped(leftOut));
    // A request the case means to be valid must follow the description: one that does not is the suite's defect,
    // never sent. A deliberately invalid one says what it breaks and goes as is.
    if (options.breaks === undefined) {
      const breach = checkerFor(
        deps.spec,
        deps.target,
      )({
        method,
        url,
        contentType: contentTypeOf(headers),
        payload: payloadOf(options),
      });
      if (breach) {
        const where = { method, path, operationId: breach.operationId };
        return Promise.reject(new SuiteRequestError(where, breach.rule, breach.field, breach.message));
      }
    }
    return deps.client.send(
      {
        method,
        url,
        headers,
        body,
        retry: options.retry,
        pace: options.pace,
        signal: deps.signal,
        // The same shape for every request (undefined on the valid ones): no spread on the request's path.
        breaks: options.breaks,
        intent: options.intent,
      },
      foreign ? observeForeign : observeOwn,
    );
  };
  return clientOf(request);
}

/** Whether the case's own headers carry an Authorization header (its own credential, malformed on purpose, ...). */
function hasAuthorization(headers: Readonly<Record<string, string>> | undefined): boolean {
  return headers !== undefined && Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
}

/** A client made of its `request`: `get`, `post`, `put` and `delete` are `request` with that method (and JSON). */
export function clientOf(request: ApiClient["request"]): ApiClient {
  return {
    request,
    get: (path, options) => request("GET", path, options),
    post: (path, json, options) => request("POST", path, { ...options, json }),
    put: (path, json, options) => request("PUT", path, { ...options, json }),
    delete: (path, options) => request("DELETE", path, options),
  };
}

export function createCaseContext(deps: CaseContextDeps, recorder: CaseRecorder): CaseContext {
  const shared = sharedValues(deps.shared);
  return {
    suiteId: deps.suiteId,
    caseId: deps.caseId,
    api: makeClient(deps, recorder, deps.target.baseUrl, deps.token),
    auth: makeClient(deps, recorder, deps.target.authUrl, undefined),
    spec: deps.spec,
    target: deps.target,
    seed: deps.seed,
    options: deps.options,
    hooks: deps.hooks,
    propertyRuns: deps.propertyRuns,
    replay: deps.replay,
    signal: deps.signal,
    shared,
    needs(key) {
      const value = shared.get(key);
      if (value === undefined) throw new CaseSkipped(neededReason(key));
      return value;
    },
    async reuse(key, read) {
      const shared = await deps.reads.read(key, `${deps.suiteId}/${deps.caseId}`, read);
      if (shared.reused)
        recorder.logs.push(
          deps.secrets.scrub(`${key}: the answer ${shared.readBy} read is reused (no request sent)`),
        );
      return shared.value;
    },
    expect(name, condition, details = {}) {
      const outcome = condition
        ? passed
        : // A suite may assert on what the target answered: known secrets never reach a result.
          failed(deps.secrets.scrub(details.message ?? name), {
            expected: deps.secrets.scrubDeep(details.expected),
            actual: deps.secrets.scrubDeep(details.actual),
          });
      const exchange = details.response?.exchange ?? recorder.lastExchange;
      if (exchange && expectsRefusal(details.expected)) recorder.refusalExpected?.(exchange);
      const reproduction = condition ? undefined : details.reproduction;
      recorder.assert(
        {
          checkId: `assert:${name}`,
          exchangeId: exchange?.id,
          outcome,
          ...(reproduction ? { reproduction } : {}),
        },
        exchange,
      );
      return condition;
    },
    skip(reason) {
      throw new CaseSkipped(reason);
    },
    knownFailure: (name) => deps.knownFailure?.(name) ?? false,
    thinEvidence: (reason) =>
      deps.thinEvidence?.(`${deps.suiteId}/${deps.caseId}: ${deps.secrets.scrub(reason)}`),
    isOperationSelected: (operationId) => deps.operations?.leftOutReason(operationId) === undefined,
    label: (name) => deps.labels.make(name),
    cleanup(description, deletePath, made) {
      deps.ledger.record({ description, deletePath, ...(made ? { made } : {}) });
    },
    cleanupUnidentified(description, label) {
      deps.ledger.recordUnidentified({ description, label });
    },
    secret: (value) => deps.secrets.add(value),
    reproduce(reproduction) {
      recorder.reproduction = reproduction;
    },
    log(message) {
      recorder.logs.push(deps.secrets.scrub(message));
    },
  };
}
