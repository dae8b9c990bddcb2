/**
 * Section 9: the generic layer's cost on large descriptions. The bench's synthetic description at two sizes (half
 * and all of its resources), each run once with writes allowed (`conform run --tag generic --allow-writes`) in a
 * fresh child against a stub target on loopback (`generic-stub.ts`) behind one fixed-window rate limit. Reported:
 * requests per operation at each size (equal ratios: the requests grow with the operations, not their square), and
 * the run's time against the rate limit's lower bound: a run of n counted requests at `limit` per window needs at
 * least ceil(n / limit) windows, so (ceil(n / limit) - 1) full windows pass between its first and last request.
 * @module
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConform } from "./conform-child.ts";
import { genericCoverage, intendedAnswersOfHar } from "./generic-coverage.ts";
import { startStubTarget } from "./generic-stub.ts";
import { formatMs, renderTable } from "./measure.ts";
import { writeSyntheticSpec } from "./synthetic-spec.ts";

export interface GenericLayerOptions {
  /** Resource counts of the synthetic description (each 5 to 7 operations). */
  readonly sizes: readonly number[];
  readonly limit: number;
  readonly windowSeconds: number;
  readonly timeoutMs: number;
}

export interface GenericLayerRow {
  readonly resources: number;
  readonly operations: number;
  readonly requested: number;
  /** Requests the stub counted (within the limit). */
  readonly requests: number;
  readonly refused429: number;
  readonly requestsPerOperation: number;
  /** The run's own duration (report.json), from its start to its end. */
  readonly runMs: number;
  /** Spawn to exit, loading the description included. */
  readonly wallMs: number;
  /** (ceil(requests / limit) - 1) windows. */
  readonly boundMs: number;
  /** runMs / boundMs: 1 is a perfect pacer with free CPU. */
  readonly overBound: number;
}

export interface GenericLayerResult {
  readonly command: string;
  readonly limit: string;
  readonly rows: readonly GenericLayerRow[];
  /** Requests per operation at the largest size over the smallest: about 1 when the growth is linear. */
  readonly growth: number;
  readonly problems: readonly string[];
}

async function runSize(resources: number, options: GenericLayerOptions, problems: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "conform-bench-generic-"));
  const stub = await startStubTarget({ limit: options.limit, windowSeconds: options.windowSeconds });
  try {
    const spec = writeSyntheticSpec({ resources }, dir);
    const har = join(dir, "run.har");
    const args = ["run", "--base-url", stub.baseUrl, "--token", "bench-token", "--spec", spec.path];
    const run = await runConform(
      [...args, "--tag", "generic", "--allow-writes", "--seed", "1", "--har", har],
      { timeoutMs: options.timeoutMs },
    );
    if (run.timedOut) problems.push(`${resources} resources: the run did not end in ${options.timeoutMs} ms`);
    else if (run.exitCode !== 0 && run.exitCode !== 1)
      problems.push(
        `${resources} resources: conform exited ${run.exitCode}: ${run.stderr.trim().slice(-300)}`,
      );
    const { loadSpec } = await import("../src/spec/load.ts");
    const coverage = genericCoverage(
      await loadSpec(spec.path),
      intendedAnswersOfHar(JSON.parse(readFileSync(har, "utf8"))),
    );
    const requests = stub.counted();
    const boundMs = (Math.ceil(requests / options.limit) - 1) * options.windowSeconds * 1000;
    const runMs = run.report?.durationMs ?? Number.NaN;
    return {
      resources,
      operations: spec.operations,
      requested: coverage.requested,
      requests,
      refused429: stub.refused(),
      requestsPerOperation: requests / spec.operations,
      runMs,
      wallMs: run.wallMs,
      boundMs,
      overBound: runMs / boundMs,
    } satisfies GenericLayerRow;
  } finally {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchGenericLayer(options: GenericLayerOptions): Promise<GenericLayerResult> {
  const problems: string[] = [];
  const rows: GenericLayerRow[] = [];
  for (const size of options.sizes) rows.push(await runSize(size, options, problems));
  const first = rows[0];
  const last = rows.at(-1);
  return {
    command:
      "node bin/conform.js run --base-url <stub> --spec <synthetic> --tag generic --allow-writes --seed 1 --har <tmp>",
    limit: `${options.limit} requests per ${options.windowSeconds} s window`,
    rows,
    growth: first && last ? last.requestsPerOperation / first.requestsPerOperation : Number.NaN,
    problems,
  };
}

/** Section 9's lines. */
export function renderGenericLayer(result: GenericLayerResult | undefined): string[] {
  const out = ["9. Generic layer on the synthetic description (stub target, writes allowed)"];
  if (!result) return [...out, "   not run"];
  out.push(`   ${result.command}; rate limit ${result.limit}`);
  const table = renderTable(
    [
      "resources",
      "operations",
      "requested",
      "requests",
      "per operation",
      "run",
      "bound",
      "run / bound",
      "429",
    ],
    result.rows.map((row) => [
      String(row.resources),
      String(row.operations),
      String(row.requested),
      String(row.requests),
      row.requestsPerOperation.toFixed(2),
      formatMs(row.runMs),
      formatMs(row.boundMs),
      row.overBound.toFixed(2),
      String(row.refused429),
    ]),
  );
  out.push(...table.split("\n").map((line) => `   ${line}`));
  out.push(
    `   requests per operation, largest size over smallest: ${result.growth.toFixed(2)} (1: linear growth)`,
  );
  out.push(...result.problems.map((problem) => `   INVALID: ${problem}`));
  return out;
}

/**
 * The goal: linear growth (requests per operation within 15 % across sizes). The run against the bound is reported,
 * not judged: on a shared machine the drawing of large bodies (CPU), not the pacing, sets most of it.
 */
export function genericLayerGoal(result: GenericLayerResult | undefined) {
  const goal =
    "generic layer: requests per operation within 15 % from half to all of the synthetic description";
  if (!result) return { section: 9, goal, measured: "not run", met: null };
  if (result.problems.length > 0)
    return { section: 9, goal, measured: `invalid: ${result.problems.join("; ")}`, met: null };
  const worst = Math.max(...result.rows.map((row) => row.overBound));
  return {
    section: 9,
    goal,
    measured: `growth ${result.growth.toFixed(2)}; run / rate-limit bound at most ${worst.toFixed(2)} (reported)`,
    met: Math.abs(result.growth - 1) <= 0.15,
  };
}
