/**
 * Versioning and protocol conventions ("Versioning", "Status codes", "General facts"):
 * - the base URL ends in the major-version segment (`v4`) and `X-Spec-Version` on answers of every kind is the
 *   spec's `info.version` (MAJOR.MINOR.PATCH, same major);
 * - a deprecated operation answers 299 with a `warnings` array; a 202 answer carries `warnings`;
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
  type CreateDelete,
  call,
  chooseRegion,
  chooseType,
  conventionsOf,
  createdId,
  createRegistered,
  defineSuite,
  errorReasons,
  expectBody,
  expectHeader,
  expectStatus,
  isSuccess,
  isWrittenInUtc,
  type LiveResponse,
  mintToken,
  type Operation,
  pathOf,
  plainRead,
  publicRead,
  type RequestOptions,
  requireDocumentedHeader,
  requireOperation,
  requireWrites,
  runTokenScopes,
  shape,
  topLevelLists,
  unknownPath,
  utcInstant,
} from "../../src/index.ts";

const { notFoundReason } = apiFacts;
const release = /^(\d+)\.(\d+)\.(\d+)$/;
const methods = ["GET", "PUT", "POST", "DELETE"];
const balancerOps: CreateDelete = ["createNodeBalancer", "deleteNodeBalancer"];
const instanceOps: CreateDelete = ["createComputeInstance", "deleteComputeInstance"];

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

/**
 * Calls the deprecated node alias (endpoint 5's path, ending at the profile) after making what it needs: a load
 * balancer with one profile, an unbooted instance with a private IPv4 to be the node. Undefined when a setup step
 * failed (asserted as `setup: <step>`).
 */
async function deprecatedNode(t: CaseContext, alias: Operation): Promise<LiveResponse | undefined> {
  const region = await chooseRegion(t, ["balancers", "instances"]);
  const type = await chooseType(t, "nanode");
  // Both deletions are looked up first: nothing is made that the run could not remove.
  for (const [, remove] of [balancerOps, instanceOps]) requireOperation(t, remove);
  const step = async (name: string, operationId: string, json: unknown, params: number[] = []) => {
    const response = await call(t, operationId, { json, params });
    return expectStatus(t, `setup: ${name}`, response, 200) ? response : undefined;
  };
  /** Creates `what` (registered for deletion as soon as it exists); its id when the answer was a 200. */
  const make = async (name: string, operations: CreateDelete, what: string, json: unknown) => {
    const { response, id } = await createRegistered(t, operations, what, { json });
    return expectStatus(t, `setup: ${name}`, response, 200) ? id : undefined;
  };
  const balancer = await make("create a load balancer", balancerOps, "load balancer", {
    region,
    label: t.label("deprecated"),
  });
  if (balancer === undefined) return undefined;
  const profile = { port: 80, protocol: "http", check: "none" };
  const configured = await step("create a profile", "createNodeBalancerConfig", profile, [balancer]);
  const config = configured && createdId(configured);
  if (config === undefined) return undefined;
  const node = { region, type, label: t.label("deprecated-node"), booted: false };
  const instance = await make("create an instance", instanceOps, "instance", node);
  if (instance === undefined) return undefined;
  const ipv4 = { type: "ipv4", public: false, compute_id: instance };
  const ip = await step("give the instance a private IPv4", "allocateIP", ipv4);
  if (!ip) return undefined;
  const given = expectBody(t, "the private IPv4 is described", ip, shape.object({ address: shape.string }));
  if (!given) return undefined;
  const address = `${given.address}:${profile.port}`;
  return call(t, alias.operationId, {
    params: [balancer, config],
    json: { label: t.label("alias-node"), address },
  });
}

/** How far a fresh `created` may be from this machine's clock (the target's clock may drift a little). */
const clockSlackMs = 60_000;
const day = 86_400_000;

/** How far `zone`'s clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
function zoneOffsetMs(zone: string, at: number): number {
  const wall = (timeZone: string) =>
    Date.parse(`${new Date(at).toLocaleString("sv-SE", { timeZone }).replace(" ", "T")}Z`);
  return wall(zone) - wall("UTC");
}

/**
 * Judges one time of the token's answer: written in UTC (the designator, and not shifted by the zone's offset:
 * the profile's local time written as UTC is no UTC), then at the moment it names. A time that is merely off (a
 * target's clock, a stale record) is not labelled a time-zone failure: it fails as a wrong time.
 */
export function judgeTime(
  t: CaseContext,
  seen: {
    zone: string;
    field: string;
    value: unknown;
    earliest: number;
    latest: number;
    response: LiveResponse;
  },
): void {
  const { zone, field, value, earliest, latest, response } = seen;
  const at = typeof value === "string" ? utcInstant(value) : undefined;
  const window = `between ${new Date(earliest).toISOString()} and ${new Date(latest).toISOString()}`;
  const reads = `with the profile's timezone ${zone}, ${field} reads ${JSON.stringify(value)}`;
  const shifted =
    at !== undefined &&
    Math.abs(at - zoneOffsetMs(zone, at) - (earliest + latest) / 2) <= (latest - earliest) / 2 + 1_000;
  const utc =
    typeof value === "string" &&
    isWrittenInUtc(value) &&
    at !== undefined &&
    !(shifted && (at < earliest || at > latest));
  t.expect("a time written under a non-UTC profile is UTC", utc, {
    message: shifted ? `${reads}: the profile's local time (${zone}), not UTC` : reads,
    expected: `a UTC time (no designator, Z or +00:00) ${window}`,
    actual: value,
    response,
  });
  if (!utc) return;
  t.expect(`a new token's ${field} is the time it names`, at >= earliest && at <= latest, {
    message: `${field} reads ${JSON.stringify(value)}, ${Math.round((at - (earliest + latest) / 2) / 60_000)} min off ${window} (a UTC time, but not this moment: the target's clock or a stale record?)`,
    expected: `a time ${window}`,
    actual: value,
    response,
  });
}

/**
 * With the profile's timezone set to a zone far from UTC, mints a token (expiring in a day, sent as `...Z`) and
 * judges the times of its answer: each written in UTC, `created` within a minute of now, `expiry` the instant
 * sent. The timezone is set back whatever happens.
 */
async function timesUnderAnotherZone(t: CaseContext): Promise<void> {
  requireOperation(t, "updateProfile");
  requireOperation(t, "createPersonalAccessToken");
  requireWrites(t, "setting the profile's timezone changes the account");
  const profile = await call(t, "getProfile");
  if (!expectStatus(t, "setup: read the profile", profile, 200)) return;
  const original = (profile.json as { timezone?: unknown } | undefined)?.timezone;
  if (typeof original !== "string") return t.skip("the profile shows no timezone to set back afterwards");
  if (profile.headers["x-oauth-scopes"] === undefined)
    return t.skip(
      "the target does not say the run token's scopes (X-OAuth-Scopes): a new token's are unknowable",
    );
  // Garbage there is the target's failure (asserted), not a request of ours to error on.
  const scopes = runTokenScopes(t, profile);
  if (!scopes) return;
  const zone = original === "America/New_York" ? "Asia/Tokyo" : "America/New_York";
  const set = await call(t, "updateProfile", { json: { timezone: zone } });
  try {
    if (!expectStatus(t, `setup: set the profile's timezone to ${zone}`, set, 200)) return;
    const expiry = `${new Date(Date.now() + day).toISOString().slice(0, 19)}Z`;
    const before = Date.now();
    const outcome = await mintToken(t, "utc-times", scopes, expiry);
    const after = Date.now();
    if (!outcome.ok) {
      expectStatus(t, "setup: create a personal access token", outcome.response, 200);
      return;
    }
    const { response } = outcome;
    const body = (response.json ?? {}) as { created?: unknown; expiry?: unknown };
    const times: [string, unknown, number, number][] = [
      ["created", body.created, before - clockSlackMs, after + clockSlackMs],
      ["expiry", body.expiry, Date.parse(expiry), Date.parse(expiry)],
    ];
    for (const [field, value, earliest, latest] of times)
      judgeTime(t, { zone, field, value, earliest, latest, response });
  } finally {
    const restored = await call(t, "updateProfile", { json: { timezone: original } });
    expectStatus(t, `cleanup: set the profile's timezone back to ${original}`, restored, 200);
  }
}

type Recipe = (t: CaseContext, alias: Operation) => Promise<LiveResponse | undefined>;
/** How to call a deprecated operation successfully, by operationId: the one recipe this suite knows. */
const recipes: Readonly<Record<string, Recipe>> = { createNodeBalancerNodeDeprecated: deprecatedNode };

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
      id: "accepted-202",
      title: "A 202 answer carries a warnings array",
      run: (t) => {
        const documented = apiOperations(t)
          .filter((operation) => operation.responses.some((entry) => entry.status === "202"))
          .map((operation) => operation.operationId);
        if (documented.length === 0)
          return t.skip("the spec documents no 202 answer: nothing can be made to answer one");
        return t.skip(`no recipe makes ${documented.join(", ")} answer 202 on demand`);
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
