/**
 * The suite authoring API: a suite is a TypeScript file exporting `defineSuite({...})` as its default export.
 * Cases run in order within a suite (a workflow's steps depend on each other); suites run concurrently.
 *
 * ```ts
 * import { call, defineSuite, expectStatus } from "../../src/index.ts";
 * export default defineSuite({
 *   id: "regions", title: "Regions are listed", tags: ["read-only"],
 *   cases: [{ id: "list", title: "The region list answers a page", run: async (t) => {
 *     // Found by operationId in the loaded description (never by path); skipped where it has none.
 *     const page = await call(t, "getRegions", { token: null });
 *     expectStatus(t, "answers 200", page, 200);
 *   } }],
 * });
 * ```
 * @module
 */
import type { Reproduction, SuiteTag } from "../core/events.ts";
import type { RequestIntent } from "../core/exchange.ts";
import type { ApiSpec } from "../spec/types.ts";
import type { LiveResponse } from "./contracts.ts";
import type { MadeResource } from "./ledger.ts";

export interface RequestOptions {
  /** JSON body. */
  readonly json?: unknown;
  /** Form fields (application/x-www-form-urlencoded). */
  readonly form?: Readonly<Record<string, string>>;
  /** A raw body; give its content type in `headers`. */
  readonly body?: string;
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** The list filter, in the description's filter header (`X-Filter`): an object (serialised for you) or raw text. */
  readonly filter?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Bearer token to use instead of the run's; `null` sends none. */
  readonly token?: string | null;
  /** false: return a 429 at once instead of waiting and retrying. */
  readonly retry?: boolean;
  /**
   * false: send at once even when the client's pacer would hold the request until a spent rate-limit window resets
   * (a suite that drives past a limit on purpose). Pacing is per token and operation either way.
   */
  readonly pace?: boolean;
  /**
   * What a deliberately invalid request breaks, in one line (`body: label too short`, `page_size below its
   * minimum`): sent as is, and shown with its exchange. Without it, a request that does not follow the description
   * (body schema, media type, parameters) is a defect of the suite: the case errors (SUITE_REQUEST_INVALID) and
   * nothing is sent.
   */
  readonly breaks?: string;
  /**
   * What a generated request means to be (the generic layer): recorded with its exchange, where the generic
   * checks judge the answer by it. A negative one also says what it breaks (`breaks`).
   */
  readonly intent?: RequestIntent;
}

export interface ApiClient {
  /** `path` is relative to the client's base (`/nodebalancers`), or an absolute URL. */
  request(method: string, path: string, options?: RequestOptions): Promise<LiveResponse>;
  get(path: string, options?: RequestOptions): Promise<LiveResponse>;
  post(path: string, json?: unknown, options?: RequestOptions): Promise<LiveResponse>;
  put(path: string, json?: unknown, options?: RequestOptions): Promise<LiveResponse>;
  delete(path: string, options?: RequestOptions): Promise<LiveResponse>;
}

export interface TargetInfo {
  readonly baseUrl: string;
  readonly authUrl: string;
  /** True when the run started the embedded reference server itself. */
  readonly embedded: boolean;
  /**
   * True when suites may create and delete resources here: the embedded target, or `--allow-writes`. Suites tagged
   * `writes` never run without it; a suite that is read-only but for one case checks this and skips that case.
   */
  readonly writesAllowed: boolean;
}

/** What a login driver gets: the authorization URL to start from and the user to log in. */
export interface LoginRequest {
  /** `{auth_url}/oauth/authorize?client_id=...&response_type=...&scopes=...&state=...` */
  readonly authorizeUrl: string;
  /** The client's registered redirect URI: the login ends when the user is sent there. */
  readonly redirectUri: string;
  readonly username: string;
  readonly password: string;
}

/** Logs in; answers the URL the user was sent to (query and fragment included), or throws why it could not. */
export type LoginDriver = (request: LoginRequest) => Promise<string>;

/** Functions a program running conform hands to the suites (a config file cannot hold functions). */
export interface SuiteHooks {
  /** Called after each run of a generated property: a progress bar on long campaigns. */
  readonly progress?: (label: string, run: number, of: number) => void;
  /** Logs a user in at the login server instead of the default form-over-HTTP driver (e.g. a real browser). */
  readonly loginDriver?: LoginDriver;
}

/**
 * The one generated property a run replays (`conform fuzz --property <suite>/<case>/<name> --path <path>`): that
 * case runs it alone, from fast-check's path to its counterexample; every other property of the run is not run.
 */
export interface PropertyReplay {
  readonly suite: string;
  readonly case: string;
  /** The property's name, as its runner was given it. */
  readonly property: string;
  /** fast-check's path to the counterexample (`3:0:1`), or undefined to run the property from its start. */
  readonly path: string | undefined;
}

export interface CaseContext {
  /** The suite and case this context runs (a replay line names them). */
  readonly suiteId: string;
  readonly caseId: string;
  /** The API under `baseUrl`, authenticated with the run's token. */
  readonly api: ApiClient;
  /** The login server under `authUrl` (no token unless given). */
  readonly auth: ApiClient;
  readonly spec: ApiSpec;
  readonly target: TargetInfo;
  /** The run's seed (generated cases derive theirs from it). */
  readonly seed: number;
  /** Settings for suites from the config file (`suiteOptions`): data only. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Functions the program running conform gave the suites. */
  readonly hooks: SuiteHooks;
  /** Runs per generated property the run asks for (`conform fuzz --runs`, `suiteOptions.runs`), or undefined. */
  readonly propertyRuns: number | undefined;
  /** Set when the run replays one property: only that one runs (see {@link PropertyReplay}). */
  readonly replay: PropertyReplay | undefined;
  /** Aborted when the run is interrupted. */
  readonly signal: AbortSignal;
  /**
   * Records an assertion of the suite's own; a false condition fails the case but the case goes on. The result
   * points at `details.response`'s exchange, or the case's latest one.
   */
  expect(
    name: string,
    condition: boolean,
    details?: {
      expected?: unknown;
      actual?: unknown;
      message?: string;
      response?: LiveResponse;
      /** What reproduces this failure (a falsified property's seed, path, counterexample and replay line). */
      reproduction?: Reproduction;
    },
  ): boolean;
  /**
   * Whether the run's operation selection (`--operation`, `--exclude-operation`, `--method`, `--path-pattern`) lets the case
   * request this operation; a request to one it leaves out skips the case, saying so.
   */
  isOperationSelected(operationId: string): boolean;
  /** Stops the case as skipped, with the reason reported (never counted as passed). */
  skip(reason: string): never;
  /** A label for a resource the run creates: the run's prefix, then `name`, short and unique. */
  label(name: string): string;
  /**
   * Registers a resource to delete at the end of the run (newest first, children before parents), whatever
   * happens; `made`: its resource kind in the description and its ids.
   */
  cleanup(description: string, deletePath: string, made?: MadeResource): void;
  /**
   * Registers a resource the target made but whose answer did not say which (no id, no `Location`): it cannot be
   * deleted by path, so the end of the run lists it by `label` (when it has one) as a cleanup failure, for
   * `conform cleanup` to find by label.
   */
  cleanupUnidentified(description: string, label: string | undefined): void;
  /** A value the run must never print (a token or password the suite made). */
  secret(value: string): void;
  /** What reproduces a generated case (seed, path, counterexample). */
  reproduce(reproduction: Reproduction): void;
  /** Values the cases of this suite share, by typed key (see {@link sharedKey}); a later case reads what an earlier one set. */
  readonly shared: SharedValues;
  /**
   * The value an earlier case shared under `key`; without one, the case is skipped with the standard reason naming
   * that case (`needs the load balancer from the earlier case "balancer", which did not share it`).
   */
  needs<T>(key: SharedKey<T>): T;
  /**
   * True when the run's `--baseline` already holds the failure group a failed assertion of this name opens (a
   * property searches on past a known defect for another); always false without a baseline.
   */
  knownFailure(assertionName: string): boolean;
  /**
   * Says the case judges on less than its properties need (`reason`: a list of one item where a filter needs
   * several to select anything): the run ends with a warning naming the case, even when it passes.
   */
  thinEvidence(reason: string): void;
  /**
   * Sends an idempotent read once per run, whatever suites ask for it: the first case to ask sends `read()` (its
   * exchange is judged there, once); a later case with the same `key` gets the same answer object without a
   * request, and a log line naming the case that read it. A read that throws is not kept. `key` must say all the
   * read depends on (operation, query, headers, who asks). Only for reads whose verdict does not depend on
   * repeating them, such as a catalogue read to choose fixtures from; never for waits or polling, reads after a
   * write, rate-limit or pagination walks, auth or scope checks, or anything judging the request itself.
   */
  reuse<T>(key: string, read: () => Promise<T>): Promise<T>;
  log(message: string): void;
}

/** Only gives {@link SharedKey} its value type (never a value at run time). */
declare const valueType: unique symbol;

/** A shared value's name and what the standard skip says of it, whatever its type. */
export interface SharedName {
  readonly name: string;
  /** What the value is, in a few words (`the load balancer`), for the standard skip. */
  readonly what: string;
  /** The id of the earlier case that shares it, for the standard skip; none for a suite's memo of its own. */
  readonly from?: string;
}

/**
 * The name of a value cases of one suite share, with its type: `t.shared.set(key, value)` takes only a `T`, and
 * `t.shared.get(key)` / `t.needs(key)` give one back without a cast. Keys are compared by `name`.
 */
export interface SharedKey<T> extends SharedName {
  /** In and out: a key of one type is no key of another. */
  readonly [valueType]?: (value: T) => T;
}

/**
 * Declares a shared value: `sharedKey<Balancer>("balancer", { what: "the load balancer", from: "balancer" })`.
 * `what` defaults to the name.
 */
export function sharedKey<T>(name: string, described: { what?: string; from?: string } = {}): SharedKey<T> {
  return Object.freeze({
    name,
    what: described.what ?? name,
    ...(described.from === undefined ? {} : { from: described.from }),
  });
}

/** The reason of the standard skip of a case whose earlier case did not share what it needs. */
export function neededReason(key: SharedName): string {
  return key.from === undefined
    ? `needs ${key.what}, which no earlier case of the suite shared`
    : `needs ${key.what} from the earlier case "${key.from}", which did not share it`;
}

/** What the cases of one suite share (`t.shared`), by typed key. */
export interface SharedValues {
  get<T>(key: SharedKey<T>): T | undefined;
  set<T>(key: SharedKey<T>, value: T): void;
  has(key: SharedName): boolean;
  /** Forgets the value (a case that changed what it describes: a later case finds it again). */
  delete(key: SharedName): void;
}

/** The suite's shared values over the map the engine keeps for it (one per suite run). */
export function sharedValues(store: Map<string, unknown>): SharedValues {
  return {
    get: <T>(key: SharedKey<T>) => store.get(key.name) as T | undefined,
    set: (key, value) => void store.set(key.name, value),
    has: (key) => store.has(key.name),
    delete: (key) => void store.delete(key.name),
  };
}

export interface SuiteCase {
  readonly id: string;
  readonly title: string;
  /** Tags of this case besides the suite's (e.g. `beyond-description`). */
  readonly tags?: readonly SuiteTag[];
  run(t: CaseContext): Promise<void> | void;
}

/** A long generated campaign a suite takes part in: `conform fuzz <campaign>` runs every suite that names it. */
export interface FuzzCampaign {
  readonly campaign: string;
  /** What it fuzzes, for `conform fuzz --help` and errors. */
  readonly describe: string;
}

export interface Suite {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  readonly tags: readonly SuiteTag[];
  readonly cases: readonly SuiteCase[];
  readonly fuzz?: FuzzCampaign;
}

const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Declares a suite (checks its shape at load time, so a broken suite fails discovery with a clear message). */
export function defineSuite(suite: Suite): Suite {
  const problems: string[] = [];
  if (!kebab.test(suite.id)) problems.push(`id "${suite.id}" must be kebab-case`);
  if (!suite.title) problems.push("title is required");
  // A suite run from .ts is type-stripped, never type-checked: its shape is checked here, not by a later crash.
  if (!Array.isArray(suite.tags)) problems.push('tags must be a list (["read-only"], [] for none)');
  const cases = Array.isArray(suite.cases) ? suite.cases : [];
  if (!Array.isArray(suite.cases)) problems.push("cases must be a list of cases");
  else if (cases.length === 0) problems.push("it has no cases");
  if (suite.fuzz && !kebab.test(suite.fuzz.campaign))
    problems.push(`fuzz campaign "${suite.fuzz.campaign}" must be kebab-case`);
  const ids = new Set<string>();
  for (const entry of cases) {
    if (!kebab.test(entry.id)) problems.push(`case id "${entry.id}" must be kebab-case`);
    if (ids.has(entry.id)) problems.push(`case id "${entry.id}" is used twice`);
    if (typeof entry.run !== "function") problems.push(`case ${entry.id} has no run function`);
    if (entry.tags !== undefined && !Array.isArray(entry.tags))
      problems.push(`case ${entry.id}: tags must be a list`);
    ids.add(entry.id);
  }
  if (problems.length > 0) throw new TypeError(`suite ${suite.id}: ${problems.join("; ")}`);
  return Object.freeze({ ...suite });
}
