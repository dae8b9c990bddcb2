/**
 * Versioning and protocol conventions ("Versioning", "Status codes", "General facts"):
 * - the base URL ends in the major-version segment (`v4`) and `X-Spec-Version` on answers of every kind is the
 *   spec's `info.version` (MAJOR.MINOR.PATCH, same major);
 * - a deprecated operation answers 299 with a `warnings` array; a 202 answer carries `warnings`;
 * - every single-resource operation answers 404 `Not found` for unknown ids;
 * - methods a path does not support answer neither 2xx nor 5xx;
 * - plain `http://` to an HTTPS target is refused or redirected, never served.
 * Read-only but for two parts that need writes (a successful call of the deprecated operation, and writes to
 * unknown ids), which run on the embedded target or with --allow-writes and are skipped otherwise.
 */
import { type CaseContext, defineSuite, type LiveResponse } from "../../src/index.ts";
import {
  apiOperations,
  errorReasons,
  isSuccess,
  type Operation,
  plainRead,
  unknownPath,
} from "./support/protocol.ts";

const release = /^(\d+)\.(\d+)\.(\d+)$/;
const methods = ["GET", "PUT", "POST", "DELETE"];

function writesOrSkip(t: CaseContext, what: string): void {
  if (!t.target.writesAllowed) {
    t.skip(`${what} changes the account: run against the embedded target or pass --allow-writes`);
  }
}

/** A request body the operation's schema accepts, to reach the handler: `{}` when valid; undefined otherwise. */
function emptyBodyIfValid(t: CaseContext, operation: Operation): { json?: unknown } | undefined {
  if (!operation.requestBody) return {};
  const validate = t.spec.validators.request(operation.operationId, "application/json");
  if (!validate) return undefined;
  return validate({}).valid ? { json: {} } : undefined;
}

function warningsOf(response: LiveResponse): unknown {
  return (response.json as { warnings?: unknown } | undefined)?.warnings;
}

function hasWarnings(response: LiveResponse): boolean {
  const warnings = warningsOf(response);
  return (
    Array.isArray(warnings) && warnings.length > 0 && warnings.every((entry) => typeof entry === "string")
  );
}

interface Page<T> {
  readonly data?: readonly T[];
}

/** Creates what the deprecated node alias needs (a profile, an instance with a private IPv4); undefined, said why. */
async function nodeSetup(t: CaseContext): Promise<{ configPath: string; address: string } | undefined> {
  const regions = await t.api.get("/regions", { token: null, query: { page_size: 500 } });
  const region = (regions.json as Page<{ id: string; status?: string; capabilities?: string[] }>)?.data?.find(
    (entry) =>
      entry.status !== "outage" &&
      entry.capabilities?.includes("NodeBalancers") &&
      entry.capabilities.includes("Linodes"),
  );
  const types = await t.api.get("/compute/types", { token: null, query: { page_size: 500 } });
  const type =
    (types.json as Page<{ id: string; class?: string }>)?.data?.find((entry) => entry.class === "nanode") ??
    (types.json as Page<{ id: string }>)?.data?.[0];
  if (!region || !type)
    t.skip("no region with load balancers and instances, or no instance type, in the catalogue");
  const step = (name: string, response: LiveResponse) =>
    t.expect(`setup: ${name}`, response.status === 200, { expected: 200, actual: response.status, response });

  const balancer = await t.api.post("/nodebalancers", { region: region!.id, label: t.label("deprecated") });
  if (!step("create a load balancer", balancer)) return undefined;
  const balancerId = (balancer.json as { id: number }).id;
  t.cleanup(`load balancer ${balancerId}`, `/nodebalancers/${balancerId}`);
  const config = await t.api.post(`/nodebalancers/${balancerId}/configs`, {
    port: 80,
    protocol: "http",
    check: "none",
  });
  if (!step("create a profile", config)) return undefined;
  const configPath = `/nodebalancers/${balancerId}/configs/${(config.json as { id: number }).id}`;

  const instance = await t.api.post("/compute/instances", {
    region: region!.id,
    type: type!.id,
    label: t.label("deprecated-node"),
    booted: false,
  });
  if (!step("create an instance", instance)) return undefined;
  const instanceId = (instance.json as { id: number }).id;
  t.cleanup(`instance ${instanceId}`, `/compute/instances/${instanceId}`);
  const ip = await t.api.post("/networking/ips", { type: "ipv4", public: false, compute_id: instanceId });
  if (!step("give the instance a private IPv4", ip)) return undefined;
  return { configPath, address: `${(ip.json as { address: string }).address}:80` };
}

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
        t.expect("the base URL ends in /v<major>", path.endsWith(`/v${match[1]}`), {
          expected: `…/v${match[1]}`,
          actual: path,
        });
      },
    },
    {
      id: "spec-version",
      title: "X-Spec-Version on answers of every kind is the spec's info.version",
      run: async (t) => {
        const answers: [string, LiveResponse][] = [];
        const publicRead = apiOperations(t).find(
          (operation) =>
            operation.security.public && operation.method === "get" && !operation.pathTemplate.includes("{"),
        );
        if (publicRead) {
          answers.push([
            `${publicRead.operationId} 200`,
            await t.api.get(publicRead.pathTemplate, { token: null }),
          ]);
          answers.push([
            "an unknown path (404)",
            await t.api.get(`${publicRead.pathTemplate}/conform-unknown-0/conform-unknown-1`, {
              token: null,
            }),
          ]);
        }
        const read = plainRead(t);
        if (read) {
          answers.push([`${read.operationId} 200`, await t.api.get(read.pathTemplate)]);
          answers.push([`${read.operationId} 401`, await t.api.get(read.pathTemplate, { token: null })]);
        }
        const list = apiOperations(t).find(
          (operation) =>
            operation.paginated && operation.method === "get" && !operation.pathTemplate.includes("{"),
        );
        if (list) {
          answers.push([
            `${list.operationId} 400`,
            await t.api.get(list.pathTemplate, {
              token: list.security.public ? null : undefined,
              query: { page_size: 1 },
            }),
          ]);
        }
        if (answers.length === 0) return t.skip("the spec has no read without path parameters");
        for (const [what, response] of answers) {
          const value = response.headers["x-spec-version"];
          t.expect("X-Spec-Version is the spec's version", value === t.spec.version, {
            message: `${what}: X-Spec-Version is ${value ?? "missing"}`,
            expected: t.spec.version,
            actual: value,
            response,
          });
        }
      },
    },
    {
      id: "deprecated-299",
      title: "A deprecated operation answers 299 with a warnings array",
      run: async (t) => {
        const deprecated = apiOperations(t).filter((operation) => operation.deprecated);
        if (deprecated.length === 0) return t.skip("the spec marks no operation deprecated");
        // The one recipe this suite knows: the node-creation alias at the profile's path (endpoint 5).
        const alias = deprecated.find(
          (operation) =>
            operation.method === "post" &&
            /^\/nodebalancers\/\{[^}]+\}\/configs\/\{[^}]+\}$/.test(operation.pathTemplate),
        );
        if (!alias)
          return t.skip(
            `no recipe to call ${deprecated.map((operation) => operation.operationId).join(", ")} successfully`,
          );
        writesOrSkip(t, "calling the deprecated node alias successfully");
        const setup = await nodeSetup(t);
        if (!setup) return;
        const response = await t.api.post(setup.configPath, {
          label: t.label("alias-node"),
          address: setup.address,
        });
        t.expect("a deprecated operation answers 299", response.status === 299, {
          message: `${alias.operationId} answered ${response.status}`,
          expected: 299,
          actual: response.status,
          response,
        });
        t.expect("a deprecated operation's answer carries warnings", hasWarnings(response), {
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
        const documented = apiOperations(t).filter((operation) =>
          operation.responses.some((entry) => entry.status === "202"),
        );
        if (documented.length === 0)
          return t.skip("the spec documents no 202 answer: nothing can be made to answer one");
        return t.skip(
          `no recipe makes ${documented.map((operation) => operation.operationId).join(", ")} answer 202 on demand`,
        );
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
          const token = operation.security.public ? null : undefined;
          const response = await t.api.request(operation.method.toUpperCase(), unknownPath(operation), {
            token,
            ...body,
          });
          t.expect("an unknown id answers 404", response.status === 404, {
            message: `${operation.operationId} ${unknownPath(operation)} answered ${response.status}`,
            expected: 404,
            actual: response.status,
            response,
          });
          if (response.status === 404) {
            t.expect("404 says Not found", errorReasons(response).includes("Not found"), {
              expected: "Not found",
              actual: errorReasons(response),
              response,
            });
          }
        }
        if (skippedWrites > 0)
          t.log(`${skippedWrites} writes to unknown ids left out: writes are not allowed on this target`);
      },
    },
    {
      id: "unsupported-methods",
      title: "Methods a path does not support answer neither 2xx nor 5xx",
      run: async (t) => {
        const byPath = new Map<string, Operation[]>();
        for (const operation of apiOperations(t)) {
          byPath.set(operation.pathTemplate, [...(byPath.get(operation.pathTemplate) ?? []), operation]);
        }
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
            t.expect(
              "an unsupported method answers neither 2xx nor 5xx",
              !isSuccess(response.status) && response.status < 500,
              {
                message: `${method} ${template} answered ${response.status}`,
                expected: "4xx",
                actual: response.status,
                response,
              },
            );
          }
        }
      },
    },
    {
      id: "plain-http-refused",
      title: "Plain http:// to the HTTPS target is refused or redirected, never served",
      run: async (t) => {
        const base = new URL(t.target.baseUrl);
        if (base.protocol !== "https:") return t.skip("the target itself is plain HTTP");
        const plain = new URL(t.target.baseUrl);
        plain.protocol = "http:";
        const read =
          apiOperations(t).find(
            (operation) =>
              operation.method === "get" &&
              operation.security.public &&
              !operation.pathTemplate.includes("{"),
          ) ?? plainRead(t);
        const url = `${plain.toString().replace(/\/$/, "")}${read?.pathTemplate ?? ""}`;
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
        t.expect("plain HTTP is not served", !isSuccess(response.status), {
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
