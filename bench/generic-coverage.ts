/**
 * What the generic layer reached, per operation, from the exchanges of a run: requested at all, a valid request
 * answered 2xx, an invalid body answered 4xx (for operations taking a JSON body). Computed from the requests'
 * intent as a HAR of the run carries it (`_conform.intent`), so it judges the generator by the target's answers,
 * not by conform's own verdicts: against a validating mock (Prism) a 2xx to a valid request and a 4xx to an
 * invalid one say the generator made what it meant to.
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
import type { ApiSpec } from "../src/spec/types.ts";

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
  };
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
  let withBody = 0;
  for (const operation of operations) {
    const sent = byOperation.get(operation.operationId) ?? [];
    if (sent.length === 0) notRequested.push(operation.operationId);
    const accepted = sent.some(({ intent, status }) => intent.mode === "positive" && isSuccess(status));
    if (!accepted) noValidAccepted.push(operation.operationId);
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
  return {
    operations: operations.length,
    requested: operations.length - notRequested.length,
    validAccepted: operations.length - noValidAccepted.length,
    withBody,
    invalidBodyRefused: withBody - noInvalidBodyRefused.length,
    requests: answers.length,
    gaps: { notRequested, noValidAccepted, noInvalidBodyRefused },
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

/** The three figures as one line: `requested 327/327 (100.0 %) · valid accepted ... · invalid body refused ...`. */
export function coverageLine(coverage: GenericCoverage): string {
  const { operations, requested, validAccepted, withBody, invalidBodyRefused } = coverage;
  return [
    `requested ${requested}/${operations} (${percent(requested, operations)})`,
    `valid accepted ${validAccepted}/${operations} (${percent(validAccepted, operations)})`,
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
