/**
 * Every write operation of the spec with a JSON request body refuses bodies that break its rules, with a 400
 * whose errors name the broken field (a path such as `nodes[1].address` for nested input):
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
import { mutationsOf } from "../../src/generators/case-meta.ts";
import { requestBodyValue } from "../../src/generators/request-body.ts";
import { isBreakable, requestBodyInvalid } from "../../src/generators/request-body-invalid.ts";
import { type CaseContext, defineSuite, type LiveResponse } from "../../src/index.ts";
import type { OperationInfo } from "../../src/spec/types.ts";
import { fixturePort, fixturesCase, fixturesOf, isSuccess } from "./support/bodies-fixtures.ts";
import {
  costlyOperations,
  errorFields,
  redactWriteOnly,
  registerCreated,
  send,
  written,
} from "./support/bodies-operations.ts";
import { bodyProperty, bodySettings, checkProperties, type Expectation } from "./support/bodies-property.ts";
import { type WriteTarget, writeTargets } from "./support/bodies-targets.ts";

const suiteId = "invalid-bodies";

/** A write that should have been refused but was not: what it created goes on the ledger. */
function keepTrack(t: CaseContext, operation: OperationInfo, path: string, response: LiveResponse): void {
  if (isSuccess(response)) registerCreated(t, operation, written(t, operation, path, response));
}

function refusedWith400(
  t: CaseContext,
  target: WriteTarget,
  what: string,
  response: LiveResponse,
): Expectation {
  keepTrack(t, target.operation, target.path, response);
  return {
    name: `${target.operation.operationId}: ${what} is refused with 400`,
    ok: response.status === 400,
    expected: 400,
    actual: response.status,
    response,
  };
}

function runsFor(target: WriteTarget, runs: number): number {
  return costlyOperations.has(target.operation.operationId) ? Math.min(runs, 2) : runs;
}

/** One property per operation: generated invalid bodies (`rules` broken each) are refused naming every field. */
function invalidBodies(t: CaseContext, rules: 1 | "several") {
  const settings = bodySettings(t, rules === 1 ? 4 : 2);
  const targets = writeTargets(t, fixturesOf(t)).filter((target) => {
    if (isBreakable(target.schema)) return true;
    t.log(`${target.operation.operationId} left out: its request schema allows any body`);
    return false;
  });
  return checkProperties(
    t,
    settings,
    targets.map((target) =>
      bodyProperty({
        key: `${rules === 1 ? "one-rule" : "several-rules"}:${target.operation.operationId}`,
        arbitrary: requestBodyInvalid(target.schema, {
          ...target.constraints,
          rules: rules === 1 ? 1 : { min: 2, max: 3 },
        }),
        runs: runsFor(target, settings.runs),
        show: (generated) => ({
          ...generated,
          value: redactWriteOnly(
            target.schema,
            generated.value,
            mutationsOf(generated.meta).map((mutation) => mutation.pointer),
          ),
        }),
        run: async (generated) => {
          const response = await send(t, target.operation, target.path, generated.value);
          const id = target.operation.operationId;
          const expectations = [refusedWith400(t, target, "an invalid body", response)];
          if (response.status !== 400) return expectations;
          const named = errorFields(response);
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
      }),
    ),
  );
}

/** Not JSON: cut short, a trailing comma, single quotes. */
const malformed = ['{"label": "conform"', '{"label": "conform",}', "{'label': 'conform'}"];

export default defineSuite({
  id: suiteId,
  title: "Invalid request bodies are refused with 400 naming the broken field",
  tags: ["writes"],
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
      run: async (t) => {
        // Instance creation is rate-limited apart (10 per 30 s): those operations are left to the generated cases.
        const targets = writeTargets(t, fixturesOf(t)).filter(
          (target) => !costlyOperations.has(target.operation.operationId),
        );
        for (const [index, target] of targets.entries()) {
          const response = await t.api.request(target.operation.method.toUpperCase(), target.path, {
            body: malformed[index % malformed.length],
            headers: { "content-type": "application/json" },
          });
          const expectation = refusedWith400(t, target, "malformed JSON", response);
          t.expect(expectation.name, expectation.ok, expectation);
        }
      },
    },
    {
      id: "wrong-content-type",
      title: "A body sent as text/plain is refused with 400",
      run: async (t) => {
        const targets = writeTargets(t, fixturesOf(t));
        for (const target of targets) {
          if (costlyOperations.has(target.operation.operationId)) continue;
          // A body valid in every other way: only its content type is wrong.
          const [body] = fc.sample(requestBodyValue(target.schema, target.constraints), {
            numRuns: 1,
            seed: t.seed,
          });
          const response = await t.api.request(target.operation.method.toUpperCase(), target.path, {
            body: JSON.stringify(body),
            headers: { "content-type": "text/plain" },
          });
          const expectation = refusedWith400(t, target, "a text/plain body", response);
          t.expect(expectation.name, expectation.ok, expectation);
        }
      },
    },
    {
      id: "https-without-key",
      title: "A profile with protocol https but no ssl_key is refused naming ssl_key",
      run: async (t) => {
        const fixtures = fixturesOf(t);
        const path = `/nodebalancers/${fixtures.nodeBalancerId}/configs`;
        const bodies = [
          { name: "https with neither certificate nor key", body: { port: 8443, protocol: "https" } },
          {
            name: "https with a certificate but no key",
            body: {
              port: 8444,
              protocol: "https",
              ssl_cert: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
            },
          },
        ];
        for (const { name, body } of bodies) {
          const response = await t.api.post(path, body);
          expectDomainRefusal(t, name, response, "ssl_key", `${path}/`);
        }
      },
    },
    {
      id: "node-address-not-private",
      title: "A back-end node whose address is not a private IPv4 is refused naming address",
      run: async (t) => {
        const fixtures = fixturesOf(t);
        const path = `/nodebalancers/${fixtures.nodeBalancerId}/configs/${fixtures.configId}/nodes`;
        const response = await t.api.post(path, {
          label: t.label("public-node"),
          address: "203.0.113.10:80",
        });
        expectDomainRefusal(t, "a node at a public address", response, "address", `${path}/`);
      },
    },
    {
      id: "weak-root-pass",
      title: "An instance with a weak root_pass is refused naming root_pass",
      tags: ["costly"],
      run: async (t) => {
        const fixtures = fixturesOf(t);
        const response = await t.api.post("/compute/instances", {
          region: fixtures.region,
          type: fixtures.type,
          label: t.label("weak-pass"),
          root_pass: "password1",
          booted: false,
        });
        expectDomainRefusal(
          t,
          "an instance with a weak root_pass",
          response,
          "root_pass",
          "/compute/instances/",
        );
      },
    },
    {
      id: "duplicate-port",
      title: "A second profile on a port the load balancer already uses is refused naming port",
      run: async (t) => {
        const fixtures = fixturesOf(t);
        const path = `/nodebalancers/${fixtures.nodeBalancerId}/configs`;
        const response = await t.api.post(path, { port: fixturePort, protocol: "http" });
        expectDomainRefusal(t, `a second profile on port ${fixturePort}`, response, "port", `${path}/`);
      },
    },
  ],
});

/** A rule beyond the schema: 400 naming `field`; anything created by mistake goes on the ledger. */
function expectDomainRefusal(
  t: CaseContext,
  name: string,
  response: LiveResponse,
  field: string,
  created: string,
): void {
  const id = (response.json as { id?: unknown } | undefined)?.id;
  if (isSuccess(response) && id !== undefined) t.cleanup(`${name} (accepted by mistake)`, `${created}${id}`);
  if (
    !t.expect(`${name} is refused with 400`, response.status === 400, {
      expected: 400,
      actual: response.status,
      response,
    })
  ) {
    return;
  }
  t.expect(`${name}: the error names ${field}`, errorFields(response).includes(field), {
    expected: `an error with field ${field}`,
    actual: response.json,
    response,
  });
}
