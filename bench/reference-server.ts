/**
 * Section 3: the reference server's throughput, driven by the raw client (so the client costs as little as it
 * can): the filtered list and a write (create a load balancer), at 1 and 16 concurrent requests. Each
 * repetition is bounded by a request count and a time budget; what a write repetition created is deleted
 * (untimed) before the next, so every repetition starts from the same state. The server's own CPU time per
 * request is reported next to the rate.
 * @module
 */
import { repeat, type Summary, summarize } from "./measure.ts";
import { createPool, onlyStatuses, rawLoad } from "./raw-client.ts";
import type { ServerChild } from "./server-child.ts";
import { createRequest, deleteBalancers, filteredList, filteredListRequest } from "./workload.ts";

export interface ServerOptions {
  readonly concurrencies: readonly number[];
  /** Requests per repetition (upper bound)... */
  readonly count: number;
  /** ...and its time budget, in ms. */
  readonly repMs: number;
  readonly warmupMs: number;
  readonly reps: number;
  /** Time budget of one (endpoint, concurrency) cell, warm-up excluded. */
  readonly maxMs: number;
}

export interface ServerCell {
  readonly endpoint: string;
  readonly kind: "list" | "write";
  readonly concurrency: number;
  readonly perSecond: Summary;
  readonly serverCpuUsPerRequest: Summary;
  readonly requestsPerRep: number;
  readonly valid: boolean;
  readonly statuses: Readonly<Record<string, number>>;
  readonly cutShort: boolean;
}

export async function benchReferenceServer(
  server: ServerChild,
  options: ServerOptions,
): Promise<ServerCell[]> {
  const origin = new URL(server.baseUrl).origin;
  const list = filteredListRequest(server.baseUrl, server.token);
  const write = createRequest(server.baseUrl, server.token);
  const cleanupPool = createPool(origin, server.certificatePem, 8);
  const cells: ServerCell[] = [];
  try {
    for (const [kind, request, describe] of [
      ["list", list, filteredList.describe],
      ["write", write, write.describe],
    ] as const) {
      for (const concurrency of options.concurrencies) {
        const pool = createPool(origin, server.certificatePem, concurrency);
        const statuses: Record<string, number> = {};
        let valid = true;
        try {
          const once = async (maxMs: number) => {
            const created: number[] = [];
            const before = await server.usage();
            const result = await rawLoad(pool, {
              ...request,
              concurrency,
              count: options.count,
              maxMs,
              ...(kind === "write"
                ? {
                    onResponse: (status: number, text: string) => {
                      if (status === 200) created.push((JSON.parse(text) as { id: number }).id);
                    },
                  }
                : {}),
            });
            const after = await server.usage();
            if (created.length > 0) await deleteBalancers(cleanupPool, server.baseUrl, server.token, created);
            return { result, serverCpuUs: after.cpuUs - before.cpuUs };
          };
          // One warm-up run per cell (JIT on both sides, the pool's connections opened), then the measured ones.
          const { samples, cutShort } = await repeat(
            { warmup: 1, reps: options.reps, maxMs: options.maxMs, minReps: 3 },
            // No forced GC before a repetition: it drops the client's compiled code (see client-overhead.ts).
            async (rep) => {
              const sample = await once(rep < 0 ? options.warmupMs : options.repMs);
              if (rep >= 0) {
                for (const [status, count] of Object.entries(sample.result.statuses))
                  statuses[status] = (statuses[status] ?? 0) + count;
                if (!onlyStatuses(sample.result, [200])) valid = false;
              }
              return sample;
            },
          );
          cells.push({
            endpoint: describe,
            kind,
            concurrency,
            perSecond: summarize(samples.map((sample) => sample.result.perSecond)),
            serverCpuUsPerRequest: summarize(
              samples.map((sample) => sample.serverCpuUs / Math.max(1, sample.result.requests)),
            ),
            requestsPerRep: Math.round(
              samples.reduce((sum, sample) => sum + sample.result.requests, 0) / Math.max(1, samples.length),
            ),
            valid,
            statuses,
            cutShort,
          });
        } finally {
          await pool.close();
        }
      }
    }
  } finally {
    await cleanupPool.close();
  }
  return cells;
}
