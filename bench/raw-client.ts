/**
 * The baseline: a raw undici Pool on keep-alive, `concurrency` requests in flight, each response read whole as
 * text and nothing else done with it. It is the physical limit the runner is measured against (ARCHITECTURE.md), and
 * the load generator of section 3. Every run is bounded by a request count and a time budget.
 * @module
 */
import { Pool } from "undici";

export interface RawLoad {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path and query, e.g. `/v4/nodebalancers?page_size=25`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body of the i-th request (writes), if any. */
  readonly body?: (index: number) => string;
  readonly concurrency: number;
  /** Stop after this many requests... */
  readonly count: number;
  /** ...or once this long has passed, whichever comes first. */
  readonly maxMs: number;
  /** Sees each response (e.g. to collect the ids of what a write created). */
  readonly onResponse?: (status: number, text: string) => void;
}

export interface RawResult {
  readonly requests: number;
  readonly elapsedMs: number;
  readonly perSecond: number;
  /** Answers by status, e.g. `{ "200": 5000 }`: a bench of error answers would measure the wrong thing. */
  readonly statuses: Readonly<Record<string, number>>;
  /** CPU time of this (the client) process during the run, user + system. */
  readonly clientCpuUs: number;
}

export function createPool(origin: string, ca: string | undefined, connections: number): Pool {
  return new Pool(origin, { connections, keepAliveTimeout: 10_000, connect: { ca } });
}

/** Drives the load through `pool`; a transport error ends the run (rethrown after the in-flight ones settle). */
export async function rawLoad(pool: Pool, load: RawLoad): Promise<RawResult> {
  const statuses: Record<string, number> = {};
  let issued = 0;
  let done = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + load.maxMs;
  const worker = async () => {
    while (issued < load.count && performance.now() < deadline) {
      const index = issued++;
      const answer = await pool.request({
        method: load.method,
        path: load.path,
        headers: load.headers,
        body: load.body?.(index),
      });
      const text = await answer.body.text();
      statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
      load.onResponse?.(answer.statusCode, text);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: load.concurrency }, worker));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    requests: done,
    elapsedMs,
    perSecond: (done / elapsedMs) * 1000,
    statuses,
    clientCpuUs: cpu.user + cpu.system,
  };
}

/** True when every answer had one of the expected statuses. */
export function onlyStatuses(result: Pick<RawResult, "statuses">, expected: readonly number[]): boolean {
  return Object.keys(result.statuses).every((status) => expected.includes(Number(status)));
}
