/**
 * Every write operation of the description with a JSON request body accepts bodies its request schema allows
 * (with the domain rules of the description and facts.md kept: see support/bodies-domain.ts), and what was sent
 * reads back: a read of the written resource shows every field sent, except write-only ones (passwords, keys),
 * fields sent as null (a reset to the default) and fields the read does not declare. Creates run first, then
 * updates, then actions that replace what others wrote to (a profile rebuild). Everything created goes on the
 * cleanup ledger. Bounded by `suiteOptions.runs` (default 2 bodies per operation; 1 for operations that create
 * instances).
 */
import fc from "fast-check";
import {
  type CaseContext,
  defineSuite,
  type Expectation,
  type Generated,
  isSuccess,
  type PropertyOptions,
  PropertyRunner,
  readWritten,
  redactWriteOnly,
  registerWritten,
  requestBody,
  sendBody,
  type WriteTarget,
  writeOnlyValues,
  written,
  writtenDifferences,
} from "../../src/index.ts";
import { bodiesCampaign, bodyTargets, costlyOperations, fixturesCase } from "./support/bodies-domain.ts";

async function writeAndReadBack(
  t: CaseContext,
  target: WriteTarget,
  body: Record<string, unknown>,
): Promise<Expectation[]> {
  const id = target.operation.operationId;
  if (target.constraints.stale?.(body)) fc.pre(false);
  for (const secret of writeOnlyValues(target.schema, body)) t.secret(secret);
  const response = await sendBody(t, target, body);
  const expectations: Expectation[] = [
    {
      name: `${id}: a valid body is accepted`,
      ok: isSuccess(response),
      expected: "2xx",
      actual: response.status,
      message: `${id} refused a body its schema allows: ${response.text.slice(0, 300)}`,
      response,
    },
  ];
  if (!isSuccess(response)) return expectations;
  // Secrets a create answers once (a token string, a client secret) must never be printed.
  const answer = (response.json ?? {}) as Record<string, unknown>;
  for (const key of ["token", "secret"]) if (typeof answer[key] === "string") t.secret(answer[key] as string);
  target.constraints.accepted?.(body);
  const where = written(t, target, response);
  registerWritten(t, target.operation, where, body);
  if (!where.read) {
    t.log(`${id}: no read of the written resource is known; only acceptance is checked`);
    return expectations;
  }
  const read = await readWritten(t, where.read);
  expectations.push({
    name: `${id}: the written resource can be read`,
    ok: read?.status === 200,
    expected: 200,
    actual: read?.status ?? "not in its list",
    ...(read ? { response: read } : {}),
  });
  if (read?.status !== 200) return expectations;
  const differences = await writtenDifferences(t, target, body, where, read);
  expectations.push({
    name: `${id}: what was sent reads back`,
    ok: differences.length === 0,
    expected: differences.map((difference) => ({ [difference.field]: difference.sent })),
    actual: differences.map((difference) => ({ [difference.field]: difference.read })),
    message: `${id}: ${differences.map((difference) => difference.field).join(", ")} read back differently`,
    response: read,
  });
  return expectations;
}

export default defineSuite({
  id: "valid-bodies",
  title: "Valid request bodies are accepted and read back",
  tags: ["writes"],
  fuzz: bodiesCampaign,
  cases: [
    fixturesCase,
    {
      id: "accepted-and-read-back",
      title: "Each write operation accepts generated valid bodies, and what was sent reads back",
      run: async (t) =>
        new PropertyRunner(t, bodiesCampaign.campaign).checkAll(
          (await bodyTargets(t)).map(
            (target): PropertyOptions<Generated<Record<string, unknown>>> => ({
              name: `valid:${target.operation.operationId}`,
              arbitrary: requestBody(target.schema, target.constraints),
              defaultRuns: 2,
              ...(costlyOperations.has(target.operation.operationId) ? { maxRuns: 1 } : {}),
              shrinks: 20,
              predicate: (generated) => writeAndReadBack(t, target, generated.value),
              show: (generated) => ({ ...generated, value: redactWriteOnly(target.schema, generated.value) }),
            }),
          ),
        ),
    },
  ],
});
