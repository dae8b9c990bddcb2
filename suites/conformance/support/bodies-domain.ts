/**
 * What a valid body must also be on a live target, beyond its schema (the description and facts.md): a region
 * and an instance type that exist, labels not taken, a root password that passes the strength score, a node
 * address that is an instance's private IPv4, a profile port the load balancer does not use yet, a check interval
 * greater than the timeout, a health check path (a URL path) for `http` checks, PROXY protocol only with `tcp`, a
 * token's scopes within the creating token's, an expiry in the future, a profile's timezone as it was (a valid
 * body must not leave the account's display timezone changed: the one the profile showed is written back).
 *
 * These are generator constraints keyed by operationId: the suites' own test design (what "valid" means on a
 * live target, what is left out and why), so they stay with the suites; the machinery that finds the write
 * operations, fills their paths and reads writes back is the toolkit's. An operation the table does not know gets
 * its schema alone (the suites grow with the description); its valid bodies may then meet rules it does not state.
 * Also here: what both body suites share (their first case, their fuzz campaign, the costly operations).
 *
 * Left out on purpose (each would need what a conformance run cannot make valid on every target):
 * `ssl_cert`/`ssl_key` and protocol `https` (a real certificate: the HTTPS workflow covers it), an instance's
 * `image`, `authorized_keys` and `authorized_users` (they must name things the account has), a node's `id` in a
 * rebuild (it must name a node of the profile), and reverse DNS names (the real service checks forward DNS: only
 * `null`, the reset, is sent).
 * @module
 */
import fc from "fast-check";
import {
  type BodyFixtures,
  bodyFixturesOf,
  type CaseContext,
  createBodyFixtures,
  jsonWriteOperations,
  type SuiteCase,
  type WriteConstraints,
  type WriteTarget,
  withListedValues,
  writeTargets,
} from "../../../src/index.ts";

/** Operations that create instances: rate-limited (10 per 30 s on the real service) and billed. */
export const costlyOperations: ReadonlySet<string> = new Set(["createComputeInstance", "allocateIP"]);

/** The `conform fuzz` campaign both body suites take part in. */
export const bodiesCampaign = { campaign: "bodies", describe: "invalid bodies refused, valid read back" };

/**
 * The first case of both body suites: creates what the bodies write against. Tagged `costly` (it creates an
 * instance): excluding that tag leaves the later cases without fixtures, and they skip saying so.
 */
export const fixturesCase: SuiteCase = {
  id: "fixtures",
  title: "Create what the bodies write against: a load balancer, profile, node, instance, OAuth client",
  tags: ["costly"],
  run: async (t) => {
    await createBodyFixtures(t);
  },
};

/**
 * The write operations of the description this target can take bodies for, with their domain constraints and the
 * values the description's lists offer for fields naming another resource.
 */
export async function bodyTargets(t: CaseContext): Promise<WriteTarget[]> {
  const fixtures = bodyFixturesOf(t);
  const constraints = new Map<string, WriteConstraints>();
  for (const operation of jsonWriteOperations(t)) {
    const domain = domainConstraints(t, operation.operationId, fixtures);
    constraints.set(operation.operationId, await withListedValues(t, operation, domain));
  }
  return writeTargets(t, fixtures.pathValues, (operationId) => constraints.get(operationId) ?? {});
}

/** A new label from the run's label maker each time one is drawn: unique, prefixed for `conform cleanup`. */
function freshLabel(t: CaseContext, name: string): fc.Arbitrary<string> {
  return fc.constant(name).map((base) => t.label(base));
}

const passwordCharacters = [..."abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%+-=?@_~"];

/** 24 random characters of four kinds: far above the strength score's threshold. Not shrunk (a shorter one is weak). */
const strongPassword: fc.Arbitrary<string> = fc.noShrink(
  fc.string({ unit: fc.constantFrom(...passwordCharacters), minLength: 24, maxLength: 24 }),
);

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A profile body kept consistent on its own, whatever the profile held before (facts.md, profile rules). */
function profileRules(body: Record<string, unknown>): Record<string, unknown> {
  if (body.check_interval !== undefined || body.check_timeout !== undefined) {
    const timeout = typeof body.check_timeout === "number" ? body.check_timeout : 30;
    const interval = typeof body.check_interval === "number" ? body.check_interval : timeout + 1;
    body.check_timeout = timeout;
    body.check_interval = interval > timeout ? interval : timeout + 1;
  }
  if (body.check_path === "") body.check_path = "/";
  if (body.check_body === "") body.check_body = "ok";
  if ((body.check === "http" || body.check === "http_body") && body.check_path === undefined)
    body.check_path = "/";
  if (body.check === "http_body" && body.check_body === undefined) body.check_body = "ok";
  if (body.proxy_protocol === "v1" || body.proxy_protocol === "v2") body.protocol = "tcp";
  else if (body.protocol !== undefined && body.protocol !== "tcp") body.proxy_protocol = "none";
  return body;
}

/** Why an operation whose valid bodies need a made resource cannot be written to (nothing was made). */
const unmade = (fixtures: BodyFixtures, what: string): WriteConstraints => ({
  unavailable: `its bodies need ${what}, and none was made: ${fixtures.lacking ?? "the fixtures case made none"}`,
});

function domainConstraints(t: CaseContext, operationId: string, fixtures: BodyFixtures): WriteConstraints {
  const label = (name: string) => freshLabel(t, name);
  const { privateIp, region, type, computeId } = fixtures;
  const address = fc.integer({ min: 1, max: 65535 }).map((port) => `${privateIp}:${port}`);
  const port = fc.integer({ min: 1024, max: 65535 });
  const profile: WriteConstraints = {
    overrides: {
      "/protocol": fc.constantFrom("http", "tcp"),
      "/port": port,
      // The path an http check requests: a URL path, as a real balancer needs it, in the characters the
      // service takes (letters, digits, `/ - % ? & = .`: facts.md, "Configuration profile").
      "/check_path": fc.stringMatching(/^\/[A-Za-z0-9/%?&=.-]{0,40}$/),
    },
    exclude: ["/ssl_cert", "/ssl_key"],
    refine: profileRules,
    stale: (body) => typeof body.port === "number" && fixtures.usedPorts.has(body.port),
    accepted: (body) => {
      if (typeof body.port === "number") fixtures.usedPorts.add(body.port);
    },
  };
  const node: WriteConstraints =
    privateIp === undefined
      ? unmade(fixtures, "an instance's private IPv4")
      : { overrides: { "/label": label("node"), "/address": address } };
  switch (operationId) {
    case "createNodeBalancer":
      if (region === undefined) return unmade(fixtures, "a region");
      return { overrides: { "/region": fc.constant(region), "/label": label("nb") } };
    case "updateNodeBalancer":
      return { overrides: { "/label": label("nb") } };
    case "createNodeBalancerConfig":
      // A new profile without a port takes port 80, which an earlier one may hold: always send one.
      return { ...profile, include: ["/port"] };
    case "updateNodeBalancerConfig":
      return profile;
    case "rebuildNodeBalancerConfig":
      if (privateIp === undefined) return unmade(fixtures, "an instance's private IPv4");
      return {
        ...profile,
        overrides: { ...profile.overrides, "/nodes/*/address": address },
        exclude: [...(profile.exclude ?? []), "/nodes/*/id"],
        extraItems: 2,
        refine: (body) => {
          // Labels are unique within a profile: one fresh label per node of the new set.
          if (Array.isArray(body.nodes)) {
            body.nodes.forEach((item: Record<string, unknown>, index) => {
              item.label = t.label(`rb${index}`);
            });
          }
          return profileRules(body);
        },
      };
    case "createNodeBalancerConfigNode":
    case "createNodeBalancerNodeDeprecated":
    case "updateNodeBalancerConfigNode":
      return node;
    case "createComputeInstance":
      if (region === undefined || type === undefined)
        return unmade(fixtures, "a region and an instance type");
      return {
        overrides: {
          "/region": fc.constant(region),
          "/type": fc.constant(type),
          "/label": label("vm"),
          "/root_pass": strongPassword,
        },
        exclude: ["/image", "/authorized_keys", "/authorized_users"],
      };
    case "updateComputeInstance":
      return { overrides: { "/label": label("vm") } };
    case "allocateIP":
      if (computeId === undefined) return unmade(fixtures, "an instance");
      // The fixture instance already holds its one private address: another may only be public.
      return { overrides: { "/compute_id": fc.constant(computeId), "/public": fc.constant(true) } };
    case "updateIP":
      return fixtures.publicIp === undefined
        ? { unavailable: "the fixture instance shows no public IPv4 to set reverse DNS on" }
        : { overrides: { "/rdns": fc.constant(null) } };
    case "createPersonalAccessToken": {
      if (fixtures.scopes === undefined) {
        return {
          unavailable:
            "the target does not say the run token's scopes (X-OAuth-Scopes): a new token's are unknowable",
        };
      }
      const now = Date.now();
      const day = 86_400_000;
      return {
        overrides: {
          "/label": label("token"),
          "/scopes": fc.constant(fixtures.scopes),
          "/expiry": fc.option(
            fc.integer({ min: 1, max: 365 }).map((days) => isoSeconds(now + days * day)),
            { nil: null },
          ),
        },
      };
    }
    case "updateProfile":
      return fixtures.timezone === undefined
        ? { unavailable: "the profile shows no timezone to write back unchanged" }
        : { overrides: { "/timezone": fc.constant(fixtures.timezone) } };
    case "createOAuthClient":
    case "updateOAuthClient":
      return {
        overrides: {
          "/label": label("app"),
          "/redirect_uri": fc.webUrl({ validSchemes: ["https"], withFragments: false }),
        },
      };
    default:
      return {};
  }
}
