import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import type { Exchange } from "../../src/core/exchange.ts";
import { createExchangeLog } from "../../src/reporters/exchange-log.ts";
import { deliver } from "../../src/reporters/index.ts";

const exchange = (id: number, status: number, operationId: string | undefined) =>
  ({
    id,
    operationId,
    request: { method: "get", url: `https://127.0.0.1/v4/regions/\u001b[31mx${id}?token=1`, headers: {} },
    response: { status, headers: {}, text: "", bytes: 0 },
  }) as unknown as Exchange;

const failed = (exchangeId: number, checkId: string): RunEvent =>
  ({
    type: "check",
    suiteId: "traffic",
    caseId: "exchanges",
    result: { checkId, exchangeId, outcome: { status: "failed", message: "m" } },
  }) as RunEvent;

const seen = (id: number, status: number, operationId?: string): RunEvent =>
  ({
    type: "exchange",
    suiteId: "traffic",
    caseId: "exchanges",
    exchange: exchange(id, status, operationId),
  }) as RunEvent;

afterEach(() => {
  vi.useRealTimers();
});

describe("exchange log", () => {
  it("writes one line per exchange once its failures are in, its text made safe for a terminal", async () => {
    const lines: string[] = [];
    const log = createExchangeLog({ write: (text) => lines.push(text), ci: false });
    for (const event of [
      seen(1, 200, "getRegion"),
      seen(2, 500, "getRegion"),
      failed(2, "not-a-server-error"),
      failed(2, "body-matches-schema"),
      seen(3, 404),
    ])
      deliver(log, event);
    await Promise.resolve();
    expect(lines).toEqual([
      "GET /v4/regions/%1B[31mx1?… 200 ok\n",
      "GET /v4/regions/%1B[31mx2?… 500 FAILED not-a-server-error, body-matches-schema\n",
      "GET /v4/regions/%1B[31mx3?… 404 not in the description (not judged)\n",
    ]);
  });

  it("says a request the target never answered was not judged, never ok", async () => {
    const lines: string[] = [];
    const log = createExchangeLog({ write: (text) => lines.push(text), ci: false });
    const unanswered = {
      ...exchange(4, 0, "getRegions"),
      response: undefined,
      error: { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:9" },
    } as Exchange;
    deliver(log, {
      type: "exchange",
      suiteId: "traffic",
      caseId: "exchanges",
      exchange: unanswered,
    } as RunEvent);
    await Promise.resolve();
    expect(lines).toEqual(["GET /v4/regions/%1B[31mx4?… no answer (ECONNREFUSED) not judged\n"]);
  });

  it("marks the exchanges of another source than the client's traffic (the proxy's own)", async () => {
    const lines: string[] = [];
    const log = createExchangeLog({ write: (text) => lines.push(text), ci: false });
    const started = { type: "run-started", suites: [{ id: "traffic" }, { id: "confirmations" }] };
    deliver(log, started as unknown as RunEvent);
    deliver(log, seen(1, 200, "getRegion"));
    deliver(log, { ...seen(2, 200, "getRegion"), suiteId: "confirmations" } as RunEvent);
    await Promise.resolve();
    expect(lines).toEqual([
      "GET /v4/regions/%1B[31mx1?… 200 ok\n",
      "(confirmations) GET /v4/regions/%1B[31mx2?… 200 ok\n",
    ]);
  });

  it("under CI writes a count a period, and the rest at the run's end", async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = createExchangeLog({ write: (text) => lines.push(text), ci: true, periodMs: 60_000 });
    deliver(log, { type: "run-started" } as RunEvent);
    for (const event of [
      seen(1, 200, "getRegion"),
      seen(2, 500, "getRegion"),
      failed(2, "not-a-server-error"),
    ])
      deliver(log, event);
    await Promise.resolve();
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(["conform proxy: 2 exchanges judged in the last minute, 1 failed\n"]);
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(1);
    deliver(log, seen(3, 200, "getRegion"));
    deliver(log, { type: "run-finished" } as RunEvent);
    expect(lines.at(-1)).toBe("conform proxy: 1 exchange judged in the last minute, 0 failed\n");
  });
});
