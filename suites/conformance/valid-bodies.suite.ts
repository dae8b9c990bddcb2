/**
 * Every write operation of the spec with a JSON request body accepts bodies its request schema allows (with the
 * domain rules of the description and facts.md kept: see support/bodies-domain.ts), and what was sent reads back:
 * a GET of the written resource shows every field sent, except write-only ones (passwords, keys), fields sent as
 * null (a reset to the default) and fields the read does not declare. Creates run first, then updates, then
 * actions that replace what others wrote to (a profile rebuild). Everything created goes on the cleanup ledger.
 * Bounded by `suiteOptions.runs` (default 2 bodies per operation; 1 for operations that create instances).
 */

import fc from "fast-check";
import { requestBody } from "../../src/generators/request-body.ts";
import { type CaseContext, defineSuite } from "../../src/index.ts";
import { fixturesCase, fixturesOf, isSuccess } from "./support/bodies-fixtures.ts";
import {
  costlyOperations,
  declaredInRead,
  findInList,
  redactWriteOnly,
  registerCreated,
  send,
  written,
} from "./support/bodies-operations.ts";
import { bodyProperty, bodySettings, checkProperties, type Expectation } from "./support/bodies-property.ts";
import { readBackDifferences } from "./support/bodies-readback.ts";
import { type WriteTarget, writeTargets } from "./support/bodies-targets.ts";

const suiteId = "valid-bodies";

/** Write-only values of a body (passwords, keys): registered as secrets, and redacted in reports. */
function writeOnlyValues(target: WriteTarget, body: Record<string, unknown>): string[] {
  return Object.entries(body)
    .filter(([name, value]) => target.schema.properties?.[name]?.writeOnly && typeof value === "string")
    .map(([, value]) => value as string);
}

async function writeAndReadBack(
  t: CaseContext,
  target: WriteTarget,
  body: Record<string, unknown>,
): Promise<Expectation[]> {
  const id = target.operation.operationId;
  if (target.constraints.stale?.(body)) fc.pre(false);
  for (const secret of writeOnlyValues(target, body)) t.secret(secret);
  const response = await send(t, target.operation, target.path, body);
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
  const where = written(t, target.operation, target.path, response);
  registerCreated(t, target.operation, where);
  if (!where.read) {
    t.log(`${id}: no read of the written resource is known; only acceptance is checked`);
    return expectations;
  }
  const read =
    where.read.kind === "get"
      ? await t.api.get(where.read.path)
      : await findInList(t, where.read.path, where.read.id);
  expectations.push({
    name: `${id}: the written resource can be read`,
    ok: read?.status === 200,
    expected: 200,
    actual: read?.status ?? "not in its list",
    ...(read ? { response: read } : {}),
  });
  if (read?.status !== 200) return expectations;
  const declared = declaredInRead(t, where.read.operation, where.read.kind === "list");
  const differences = readBackDifferences(body, read.json, target.schema, declared);
  for (const [name, listPath] of Object.entries(where.lists ?? {})) {
    differences.push(...(await listDifferences(t, target, body, name, listPath)));
  }
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

/** A sub-list replaced by the write (a rebuild's `nodes`): the list shows exactly the items sent, matched by label. */
async function listDifferences(
  t: CaseContext,
  target: WriteTarget,
  body: Record<string, unknown>,
  name: string,
  listPath: string,
): Promise<ReturnType<typeof readBackDifferences>> {
  const sent = Array.isArray(body[name]) ? (body[name] as Record<string, unknown>[]) : [];
  const response = await t.api.get(listPath, { query: { page_size: 500 } });
  const items = ((response.json as { data?: Record<string, unknown>[] } | undefined)?.data ?? []) as Record<
    string,
    unknown
  >[];
  const listOperation = t.spec.operations.match("GET", listPath)?.operation;
  const declared = listOperation ? declaredInRead(t, listOperation, true) : undefined;
  const itemSchema = target.schema.properties?.[name]?.items;
  if (items.length !== sent.length)
    return [{ field: `${name}.length`, sent: sent.length, read: items.length }];
  if (!itemSchema) return [];
  return sent.flatMap((item, index) => {
    const match = items.find((candidate) => candidate.label === item.label);
    if (!match) return [{ field: `${name}[${index}]`, sent: item, read: undefined }];
    return readBackDifferences(item, match, itemSchema, declared, `${name}[${index}].`);
  });
}

export default defineSuite({
  id: suiteId,
  title: "Valid request bodies are accepted and read back",
  tags: ["writes"],
  cases: [
    fixturesCase,
    {
      id: "accepted-and-read-back",
      title: "Each write operation accepts generated valid bodies, and what was sent reads back",
      run: (t) => {
        const settings = bodySettings(t, 2);
        const targets = writeTargets(t, fixturesOf(t));
        return checkProperties(
          t,
          settings,
          targets.map((target) =>
            bodyProperty({
              key: `valid:${target.operation.operationId}`,
              arbitrary: requestBody(target.schema, target.constraints),
              runs: costlyOperations.has(target.operation.operationId) ? 1 : settings.runs,
              run: (generated) => writeAndReadBack(t, target, generated.value),
              show: (generated) => ({ ...generated, value: redactWriteOnly(target.schema, generated.value) }),
            }),
          ),
        );
      },
    },
  ],
});
