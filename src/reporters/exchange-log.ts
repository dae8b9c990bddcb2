/**
 * What `conform proxy` prints while it runs, so a user sees it is getting traffic: on a terminal (or any stream
 * outside CI) one line per exchange as it is judged (method, path, status, verdict: the checks it failed); under CI
 * one line a minute with the count judged and failed in that minute, since a CI log of every request would bury the
 * job. It only listens to events: an exchange's `check` events (failures and skips) come right after its `exchange`
 * event, synchronously, so its line is written once they are in (a microtask later).
 * @module
 */
import type { RunEvent } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { terminalSafe } from "./_internals/text.ts";
import { deliver } from "./index.ts";
import type { Reporter } from "./types.ts";

export interface ExchangeLogOptions {
  /** Where the lines go (the proxy's stderr). */
  readonly write: (text: string) => void;
  /** Under CI: a count a minute instead of a line an exchange. */
  readonly ci: boolean;
  /** The count's period, in ms (default a minute). */
  readonly periodMs?: number;
}

/**
 * `GET /v4/regions?… 200 ok` or `… 500 FAILED not-a-server-error, body-matches-schema`; `(confirmations) GET …` for
 * an exchange of another source than the client's traffic (the proxy's own, `--confirm`).
 */
export function exchangeLine(exchange: Exchange, failedChecks: readonly string[], source?: string): string {
  const url = URL.parse(exchange.request.url);
  const path = url ? `${url.pathname}${url.search ? "?…" : ""}` : exchange.request.url;
  const status = exchange.response
    ? String(exchange.response.status)
    : `no answer (${exchange.error?.code ?? "?"})`;
  // No answer: the checks had nothing to judge, so it is no "ok" (run's transport result says why).
  const verdict = !exchange.operationId
    ? "not in the description (not judged)"
    : !exchange.response
      ? "not judged"
      : failedChecks.length > 0
        ? `FAILED ${[...new Set(failedChecks)].join(", ")}`
        : "ok";
  const mark = source === undefined ? "" : `(${source}) `;
  return terminalSafe(`${mark}${exchange.request.method.toUpperCase()} ${path} ${status} ${verdict}`, true);
}

export function createExchangeLog(options: ExchangeLogOptions): Reporter {
  let pending: { exchange: Exchange; failed: string[]; source: string | undefined } | undefined;
  /** The client's traffic: the run's first suite; another one's lines say which. */
  let clients: string | undefined;
  let judged = 0;
  let failed = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (!pending) return;
    const { exchange, failed: checks, source } = pending;
    pending = undefined;
    if (options.ci) {
      judged += 1;
      if (checks.length > 0) failed += 1;
    } else options.write(`${exchangeLine(exchange, checks, source)}\n`);
  };
  const tell = () => {
    if (judged === 0) return;
    options.write(
      `conform proxy: ${judged} ${judged === 1 ? "exchange" : "exchanges"} judged in the last minute, ${failed} failed\n`,
    );
    judged = 0;
    failed = 0;
  };
  const stop = () => {
    flush();
    if (timer) clearInterval(timer);
    timer = undefined;
    if (options.ci) tell();
  };
  return {
    name: "exchange-log",
    files: [],
    "run-started"(event) {
      clients = event.suites?.[0]?.id;
      if (!options.ci) return;
      timer = setInterval(tell, options.periodMs ?? 60_000);
      timer.unref();
    },
    exchange(event) {
      flush();
      const source = clients === undefined || event.suiteId === clients ? undefined : event.suiteId;
      pending = { exchange: event.exchange, failed: [], source };
      queueMicrotask(flush);
    },
    check(event) {
      if (
        pending &&
        event.result.exchangeId === pending.exchange.id &&
        event.result.outcome.status === "failed"
      )
        pending.failed.push(event.result.checkId);
    },
    "run-finished": stop,
    async close() {
      stop();
    },
  };
}

/** The log as a run listener writing to stderr: a count a minute under CI (the `CI` variable), else a line each. */
export function exchangeLogListener(env: NodeJS.ProcessEnv): (event: RunEvent) => void {
  const log = createExchangeLog({ write: (text) => process.stderr.write(text), ci: Boolean(env.CI) });
  return (event) => void deliver(log, event);
}
