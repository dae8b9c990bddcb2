/**
 * What the generic layer reached, per operation, from the exchanges of a run: requested at all, a valid request
 * answered 2xx, an invalid body answered 4xx (for operations taking a JSON body). Computed from the requests'
 * intent as a HAR of the run carries it (`_conform.intent`), so it judges the generator by the target's answers,
 * not by conform's own verdicts: against a validating mock (Prism) a 2xx to a valid request and a 4xx to an
 * invalid one say the generator made what it meant to.
 *
 * "Valid accepted" is given over all operations and over those a run without `--allow-writes` may send a valid
 * request to: the writes naming no resource are withheld from such a run on purpose, and counted apart.
 *
 * Used by the bench (section 9) and, on its own, for trials against a mock of any description:
 * `npx node bench/generic-coverage.ts --spec <description> --har <run.har>`.
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { RequestIntent } from "../src/core/exchange.ts";
import { loadSpec } from "../src/spec/load.ts";
import type { ApiSpec, OperationInfo } from "../src/spec/types.ts";
import { operationKind } from "../src/toolkit/operation-requests.ts";

/** One request as the coverage counts it. */
export interface IntendedAnswer {
  readonly intent: RequestIntent;
  /** 0 when no answer came. */
  readonly status: number;
}

export interface GenericCoverage {
  /** The API server's operations (the login server's set aside). */
  readonly operations: number;
  readonly requested: number;
  /** Operations given a valid request answered 2xx. */
  readonly validAccepted: number;
  /**
   * Operations a run without `--allow-writes` may send a valid request to: all but the writes naming no resource
   * (a create, an action on a collection), whose valid request would change the account.
   */
  readonly readOnlyReach: number;
  /** Of those, operations given a valid request answered 2xx. */
  readonly readOnlyValidAccepted: number;
  /** Operations taking a JSON body. */
  readonly withBody: number;
  /** Of those, operations given an invalid body (a rule broken in the body) answered 4xx. */
  readonly invalidBodyRefused: number;
  /** Requests sent with an intent. */
  readonly requests: number;
  /** Operation ids in each gap, for reading the failures. */
  readonly gaps: {
    readonly notRequested: readonly string[];
    readonly noValidAccepted: readonly string[];
    readonly noInvalidBodyRefused: readonly string[];
    /** Writes naming no resource: withheld from a run without writes (counted apart from the read-only reach). */
    readonly withheldWithoutWrites: readonly string[];
  };
}

/** Why a read-only run gives an operation no valid request (the toolkit's `probeWrite` rule). */
export const withheldReason = "withheld: writes need --allow-writes";

/** A write naming no resource (no path parameter): a valid request to it would change the account. */
export function withheldWithoutWrites(spec: ApiSpec, operation: OperationInfo): boolean {
  return operationKind(spec, operation) !== "read" && !operation.pathTemplate.includes("{");
}

const isSuccess = (status: number) => status >= 200 && status < 300;
const isRefusal = (status: number) => status >= 400 && status < 500;

/** The coverage of `answers` over the API operations of `spec` (pure). */
export function genericCoverage(spec: ApiSpec, answers: readonly IntendedAnswer[]): GenericCoverage {
  const operations = spec.operations.all().filter((operation) => operation.serverUrl === undefined);
  const byOperation = new Map<string, IntendedAnswer[]>();
  for (const answer of answers) {
    const list = byOperation.get(answer.intent.operationId) ?? [];
    list.push(answer);
    byOperation.set(answer.intent.operationId, list);
  }
  const notRequested: string[] = [];
  const noValidAccepted: string[] = [];
  const noInvalidBodyRefused: string[] = [];
  const withheld: string[] = [];
  let withBody = 0;
  for (const operation of operations) {
    const sent = byOperation.get(operation.operationId) ?? [];
    if (sent.length === 0) notRequested.push(operation.operationId);
    const accepted = sent.some(({ intent, status }) => intent.mode === "positive" && isSuccess(status));
    if (!accepted) noValidAccepted.push(operation.operationId);
    if (withheldWithoutWrites(spec, operation)) withheld.push(operation.operationId);
    if (!operation.requestBody?.contentTypes.includes("application/json")) continue;
    withBody += 1;
    const refused = sent.some(
      ({ intent, status }) =>
        intent.mode === "negative" &&
        isRefusal(status) &&
        (intent.broken ?? []).some((rule) => rule.in === "body"),
    );
    if (!refused) noInvalidBodyRefused.push(operation.operationId);
  }
  const withheldSet = new Set(withheld);
  const readOnlyMissed = noValidAccepted.filter((operationId) => !withheldSet.has(operationId));
  return {
    operations: operations.length,
    requested: operations.length - notRequested.length,
    validAccepted: operations.length - noValidAccepted.length,
    readOnlyReach: operations.length - withheld.length,
    readOnlyValidAccepted: operations.length - withheld.length - readOnlyMissed.length,
    withBody,
    invalidBodyRefused: withBody - noInvalidBodyRefused.length,
    requests: answers.length,
    gaps: { notRequested, noValidAccepted, noInvalidBodyRefused, withheldWithoutWrites: withheld },
  };
}

/** The requests of a HAR written by `conform run --har` that carry an intent. */
export function intendedAnswersOfHar(har: unknown): IntendedAnswer[] {
  const entries = (har as { log?: { entries?: unknown[] } }).log?.entries ?? [];
  return entries.flatMap((entry) => {
    const { _conform: own, response } = entry as {
      _conform?: { intent?: RequestIntent };
      response?: { status?: number };
    };
    return own?.intent ? [{ intent: own.intent, status: response?.status ?? 0 }] : [];
  });
}

const percent = (part: number, whole: number) =>
  whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)} %`;

/**
 * The figures as one line: `requested 327/327 (100.0 %) · valid accepted ... · of what a read-only run may send
 * valid ... · invalid body refused ...`.
 */
export function coverageLine(coverage: GenericCoverage): string {
  const { operations, requested, validAccepted, withBody, invalidBodyRefused } = coverage;
  const { readOnlyReach, readOnlyValidAccepted } = coverage;
  const withheld = coverage.gaps.withheldWithoutWrites.length;
  return [
    `requested ${requested}/${operations} (${percent(requested, operations)})`,
    `valid accepted ${validAccepted}/${operations} (${percent(validAccepted, operations)})`,
    `valid accepted of what a read-only run may send valid ${readOnlyValidAccepted}/${readOnlyReach} (${percent(readOnlyValidAccepted, readOnlyReach)}; ${withheld} ${withheldReason})`,
    `invalid body refused ${invalidBodyRefused}/${withBody} (${percent(invalidBodyRefused, withBody)})`,
  ].join(" · ");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { spec: { type: "string" }, har: { type: "string" }, gaps: { type: "boolean", default: false } },
    strict: true,
  });
  if (!values.spec || !values.har) {
    process.stderr.write("usage: generic-coverage.ts --spec <description> --har <run.har> [--gaps]\n");
    process.exit(2);
  }
  const spec = await loadSpec(values.spec);
  const coverage = genericCoverage(spec, intendedAnswersOfHar(JSON.parse(readFileSync(values.har, "utf8"))));
  process.stdout.write(`${coverageLine(coverage)} · ${coverage.requests} requests\n`);
  if (values.gaps) process.stdout.write(`${JSON.stringify(coverage.gaps, null, 2)}\n`);
}
