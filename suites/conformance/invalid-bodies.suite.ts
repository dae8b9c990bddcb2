/**
 * Every write operation of the description with a JSON request body refuses bodies that break its rules, with a
 * 400 whose errors name the broken field (a path such as `nodes[1].address` for nested input):
 * - generated bodies that break exactly one rule of the request schema (missing required property, wrong type,
 *   out of bound, too long or short, not one of the listed values, not matching the pattern, null where not
 *   nullable), each with its provenance (rule, pointer, field);
 * - bodies that break several independent rules at once: every broken field named in the same answer (the
 *   description: "as many problems as possible are reported together");
 * - malformed JSON and a wrong content type;
 * - rules beyond the schema from the description and facts.md: https without a key, a node address that is not
 *   private, a weak root password, a port the load balancer already uses.
 * A target that accepts a bad body gets what it created put on the cleanup ledger. Bounded by `suiteOptions.runs`
 * (default 4 bodies per operation and rule kind; 2 for operations that create instances).
 */
import fc from "fast-check";
import {
  bodyFixturePort,
  bodyFixturesOf,
  breaksOf,
  type CaseContext,
  call,
  defineSuite,
  type Expectation,
  errorFields,
  expectRefusal,
  type Generated,
  isBreakable,
  isSuccess,
  type LiveResponse,
  madeFixture,
  mutationsOf,
  type PathValue,
  type PropertyOptions,
  PropertyRunner,
  redactWriteOnly,
  registerWritten,
  requestBodyInvalid,
  requestBodyValue,
  requireOperation,
  sendTo,
  type WriteTarget,
  written,
} from "../../src/index.ts";
import { bodiesCampaign, bodyTargets, costlyOperations, fixturesCase } from "./support/bodies-domain.ts";

/**
 * `<operationId>: <what> is refused with 400`; what a mistaken success created goes on the ledger (by the label in
 * `sent` when the answer does not name it).
 */
function refusedWith400(
  t: CaseContext,
  target: WriteTarget,
  what: string,
  response: LiveResponse,
  sent: unknown,
): Expectation {
  if (isSuccess(response)) registerWritten(t, target.operation, written(t, target, response), sent);
  return {
    name: `${target.operation.operationId}: ${what} is refused with 400`,
    ok: response.status === 400,
    expected: 400,
    actual: response.status,
    response,
  };
}

/** One property per operation: generated invalid bodies (`rules` broken each) are refused naming every field. */
async function invalidBodies(t: CaseContext, rules: 1 | "several") {
  const targets = (await bodyTargets(t)).filter((target) => {
    if (isBreakable(target.schema)) return true;
    t.log(`${target.operation.operationId} left out: its request schema allows any body`);
    return false;
  });
  return new PropertyRunner(t, bodiesCampaign.campaign).checkAll(
    targets.map((target): PropertyOptions<Generated<unknown>> => {
      const id = target.operation.operationId;
      return {
        name: `${rules === 1 ? "one-rule" : "several-rules"}:${id}`,
        arbitrary: requestBodyInvalid(target.schema, {
          ...target.constraints,
          rules: rules === 1 ? 1 : { min: 2, max: 3 },
        }),
        defaultRuns: rules === 1 ? 4 : 2,
        ...(costlyOperations.has(id) ? { maxRuns: 2 } : {}),
        shrinks: 20,
        show: (generated) => ({
          ...generated,
          value: redactWriteOnly(
            target.schema,
            generated.value,
            mutationsOf(generated.meta).map((mutation) => mutation.pointer),
          ),
        }),
        predicate: async (generated) => {
          const response = await sendTo(t, target, {
            json: generated.value,
            breaks: breaksOf(generated.meta),
          });
          const expectations = [refusedWith400(t, target, "an invalid body", response, generated.value)];
          if (response.status !== 400) return expectations;
          const named = errorFields(t, response);
          const fields = mutationsOf(generated.meta).flatMap((mutation) =>
            mutation.field ? [mutation.field] : [],
          );
          const missing = fields.filter((field) => !named.includes(field));
          expectations.push({
            name:
              rules === 1
                ? `${id}: the error names the broken field`
                : `${id}: every broken field is named together`,
            ok: missing.length === 0,
            expected: fields,
            actual: named,
            message: `${id} answered 400 without naming ${missing.join(", ")} (broken: ${JSON.stringify(mutationsOf(generated.meta))})`,
            response,
          });
          return expectations;
        },
      };
    }),
  );
}

/** Sends a raw body to each write target but the costly ones, asserting it is refused with 400. */
async function refuseRaw(
  t: CaseContext,
  what: string,
  contentType: string,
  body: (target: WriteTarget, index: number) => string,
  breaks: string,
): Promise<void> {
  // Instance creation is rate-limited apart (10 per 30 s): those operations are left to the generated cases.
  const targets = (await bodyTargets(t)).filter(
    (target) => !costlyOperations.has(target.operation.operationId),
  );
  for (const [index, target] of targets.entries()) {
    const headers = { "content-type": contentType };
    const sent = body(target, index);
    const response = await sendTo(t, target, { body: sent, headers, breaks });
    const expectation = refusedWith400(t, target, what, response, sent);
    t.expect(expectation.name, expectation.ok, expectation);
  }
}

/** Not JSON: cut short, a trailing comma, single quotes. */
const malformed = ['{"label": "conform"', '{"label": "conform",}', "{'label': 'conform'}"];

/** A rule beyond the schema: `body` sent to `operationId` is refused naming `field` (anything created goes on the ledger). */
async function refusedBeyondSchema(
  t: CaseContext,
  name: string,
  operationId: string,
  params: readonly PathValue[],
  body: unknown,
  field: string,
  breaks?: string,
): Promise<void> {
  const operation = requireOperation(t, operationId);
  // Most rules beyond the schema are sent in schema-valid bodies; one the description also writes as a schema
  // rule says so (`breaks`).
  const response = await call(t, operationId, { params, json: body, ...(breaks ? { breaks } : {}) });
  if (isSuccess(response)) registerWritten(t, operation, written(t, { operation, params }, response), body);
  expectRefusal(t, name, response, field);
}

export default defineSuite({
  id: "invalid-bodies",
  title: "Invalid request bodies are refused with 400 naming the broken field",
  tags: ["writes"],
  fuzz: bodiesCampaign,
  cases: [
    fixturesCase,
    {
      id: "one-rule",
      title: "A body breaking one schema rule is refused with 400 naming the field",
      run: (t) => invalidBodies(t, 1),
    },
    {
      id: "several-rules",
      title: "A body breaking several independent rules is refused with every field named together",
      run: (t) => invalidBodies(t, "several"),
    },
    {
      id: "malformed-json",
      title: "Malformed JSON is refused with 400",
      run: (t) =>
        refuseRaw(
          t,
          "malformed JSON",
          "application/json",
          (_target, index) => malformed[index % malformed.length]!,
          "body: not JSON (malformed)",
        ),
    },
    {
      id: "wrong-content-type",
      title: "A body sent as text/plain is refused with 400",
      // A body valid in every other way: only its content type is wrong.
      run: (t) =>
        refuseRaw(
          t,
          "a text/plain body",
          "text/plain",
          (target) =>
            JSON.stringify(
              fc.sample(requestBodyValue(target.schema, target.constraints), { numRuns: 1, seed: t.seed })[0],
            ),
          "content-type: text/plain, not among the request body's media types",
        ),
    },
    {
      id: "https-without-key",
      title: "A profile with protocol https but no ssl_key is refused naming ssl_key",
      run: async (t) => {
        const fixtures = bodyFixturesOf(t);
        const nodeBalancerId = madeFixture(t, fixtures, fixtures.nodeBalancerId, "load balancer");
        const certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        const bodies = [
          { name: "https with neither certificate nor key", body: { port: 8443, protocol: "https" } },
          {
            name: "https with a certificate but no key",
            body: { port: 8444, protocol: "https", ssl_cert: certificate },
            breaks: "ssl_key: absent where ssl_cert is present (the schema's dependentRequired)",
          },
        ];
        for (const { name, body, breaks } of bodies) {
          const operationId = "createNodeBalancerConfig";
          await refusedBeyondSchema(t, name, operationId, [nodeBalancerId], body, "ssl_key", breaks);
        }
      },
    },
    {
      id: "node-address-not-private",
      title: "A back-end node whose address is not a private IPv4 is refused naming address",
      run: async (t) => {
        const fixtures = bodyFixturesOf(t);
        const nodeBalancerId = madeFixture(t, fixtures, fixtures.nodeBalancerId, "load balancer");
        const configId = madeFixture(t, fixtures, fixtures.configId, "configuration profile");
        const body = { label: t.label("public-node"), address: "203.0.113.10:80" };
        const params = [nodeBalancerId, configId];
        const name = "a node at a public address";
        const breaks = "address: a public IPv4, outside the schema's pattern of private addresses";
        await refusedBeyondSchema(t, name, "createNodeBalancerConfigNode", params, body, "address", breaks);
      },
    },
    {
      id: "weak-root-pass",
      title: "An instance with a weak root_pass is refused naming root_pass",
      tags: ["costly"],
      run: async (t) => {
        const fixtures = bodyFixturesOf(t);
        const region = madeFixture(t, fixtures, fixtures.region, "region");
        const type = madeFixture(t, fixtures, fixtures.type, "instance type");
        const body = { region, type, label: t.label("weak-pass"), root_pass: "password1", booted: false };
        const name = "an instance with a weak root_pass";
        await refusedBeyondSchema(t, name, "createComputeInstance", [], body, "root_pass");
      },
    },
    {
      id: "duplicate-port",
      title: "A second profile on a port the load balancer already uses is refused naming port",
      run: async (t) => {
        const fixtures = bodyFixturesOf(t);
        const nodeBalancerId = madeFixture(t, fixtures, fixtures.nodeBalancerId, "load balancer");
        const body = { port: bodyFixturePort, protocol: "http" };
        const name = `a second profile on port ${bodyFixturePort}`;
        await refusedBeyondSchema(t, name, "createNodeBalancerConfig", [nodeBalancerId], body, "port");
      },
    },
  ],
});
