/**
 * Exchanges of the bundled description as a client's traffic shows them, and a stateful check run over a
 * sequence of them (the `observed-*` checks' tables).
 */

import { expect, it } from "vitest";
import type { AnsweredExchange, CheckDefinition, RecordingGaps } from "../../src/checks/types.ts";
import type { CheckOutcome } from "../../src/core/result.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { bundledSpec } from "./reference.ts";

export const spec = await bundledSpec();
let nextId = 1;

export interface Seen {
  readonly operationId: string;
  readonly method?: string;
  readonly path: string;
  readonly requestHeaders?: Record<string, string>;
  readonly requestBody?: unknown;
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly json?: unknown;
  /** `https://` instead of `http://` (HSTS). */
  readonly https?: boolean;
}

export function seen(init: Seen): AnsweredExchange {
  const text = init.json === undefined ? "" : JSON.stringify(init.json);
  return {
    id: nextId++,
    request: {
      method: init.method ?? "GET",
      url: `${init.https ? "https" : "http"}://127.0.0.1:1/v4${init.path}`,
      headers: init.requestHeaders ?? {},
      body: init.requestBody === undefined ? undefined : JSON.stringify(init.requestBody),
    },
    response: {
      status: init.status ?? 200,
      headers: { "content-type": "application/json", ...init.headers },
      json: init.json,
      text,
      truncated: false,
      bytes: text.length,
    },
    error: undefined,
    timings: { startedAt: Date.now(), headersMs: 1, totalMs: 1 },
    operationId: init.operationId,
    retries: 0,
  };
}

/** The public list of regions answered 404 with no header beyond Content-Type (over HTTPS). */
export const regionsNotFound = () =>
  seen({
    operationId: "getRegions",
    path: "/regions",
    status: 404,
    json: { errors: [{ reason: "Not found" }] },
    https: true,
  });

/** A list envelope of `data`, one page. */
export const page = (data: object[], extra: object = {}) => ({
  data,
  page: 1,
  pages: 1,
  results: data.length,
  ...extra,
});

export const typesList = (
  path: string,
  json: unknown,
  requestHeaders: Record<string, string> = {},
  status = 200,
) => seen({ operationId: "getComputeTypes", path, json, requestHeaders, status });

/** One row of a stateful check's table: a sequence, the verdict on its last exchange, the caller if known. */
export interface SequenceCase {
  readonly name: string;
  readonly sequence: readonly AnsweredExchange[];
  /** The last exchange's outcome (matched as a subset); undefined: not an exchange the check is about. */
  readonly outcome:
    | Partial<Record<"status" | "message" | "reason" | "expected" | "actual", unknown>>
    | undefined;
  readonly caller?: string;
  /** Judged as a recording's exchanges, with what it may lack. */
  readonly recording?: RecordingGaps;
  /** The description judged against; default the bundled one. */
  readonly spec?: ApiSpec;
}

/** The bundled description as another API's: its own title, the same operations. */
export const anotherApi = (): ApiSpec => ({ ...spec, title: "Someone Else's API" });

/** The check's outcome on the last exchange of a sequence, judged in order with one per-run state. */
export function lastVerdict(
  definition: CheckDefinition,
  sequence: readonly AnsweredExchange[],
  caller?: string,
  recording?: RecordingGaps,
  judgedAgainst: ApiSpec = spec,
): CheckOutcome | undefined {
  const state = definition.state?.();
  let last: CheckOutcome | undefined;
  for (const exchange of sequence) {
    const operation = exchange.operationId ? judgedAgainst.operations.byId(exchange.operationId) : undefined;
    const context = {
      spec: judgedAgainst,
      operation,
      sentAt: exchange.timings.startedAt,
      receivedAt: exchange.timings.startedAt + 1,
      ...(caller !== undefined ? { caller } : {}),
      ...(recording ? { recording } : {}),
    };
    last = definition.check(context, exchange, state);
  }
  return last;
}

export function runSequenceCases(definition: CheckDefinition, cases: readonly SequenceCase[]): void {
  it.each(cases)("$name", (row) => {
    const outcome = lastVerdict(definition, row.sequence, row.caller, row.recording, row.spec);
    if (row.outcome === undefined) expect(outcome).toBeUndefined();
    else expect(outcome).toMatchObject(row.outcome);
  });
  it("its table has a case that passes and one that fails", () => {
    const statuses = new Set(cases.map((row) => row.outcome?.status));
    expect(statuses).toContain("passed");
    expect(statuses).toContain("failed");
  });
}
