/**
 * The traffic matrix (issue 34's done-when): for the clean reference and each of its named faults, the reference is
 * started on loopback, `conform proxy` in front of it, a client driven through the proxy (by default
 * `realistic-client.ts`), the proxy's HAR recorded and then judged again by `conform verify`. Per fault: whether
 * the traffic exercised it, whether the proxy caught it, whether verify caught it on the HAR.
 *
 * Exercised is decided by comparing answers, not by a declared table: the traffic reached what a fault changes when
 * the faulty reference gave the client an answer the clean reference never gave in two runs of the same traffic
 * (each answer normalised: the request, its status, body and headers; times as "now" or "not now", random ids,
 * secrets and addresses as their shape; a poll by its last answer). Two clean runs make the baseline, so an answer
 * that only timing changes does not count.
 *
 * `node bench/traffic-matrix.ts [--faults a,b] [--concurrency N] [--json FILE]` prints the table.
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { RunEvent } from "../src/core/events.ts";
import type { Exchange } from "../src/core/exchange.ts";
import { faultRegistry } from "../src/reference/faults/index.ts";
import { type RunConfig, runConfigDefaults } from "../src/runner/config.ts";
import { startTarget } from "../src/runner/target.ts";
import { bundledSpecPath } from "../src/spec/bundled.ts";
import { loadSpec } from "../src/spec/load.ts";
import type { ApiSpec } from "../src/spec/types.ts";
import { HarWriter } from "../src/traffic/har.ts";
import { runProxy } from "../src/traffic/proxy.ts";
import { verifyRecordings } from "../src/traffic/verify.ts";
import { type ClientTarget, runRealisticClient } from "./realistic-client.ts";

/** A client to drive through the proxy: it gets the proxy's base URL and the reference's token. */
export type TrafficDriver = (target: ClientTarget) => Promise<unknown>;

/** What one pass of the traffic showed: the checks that failed in the proxy and in verify, the answers seen. */
export interface TrafficPass {
  readonly proxyFailed: readonly string[];
  readonly verifyFailed: readonly string[];
  readonly exchanges: number;
  /** Each answer the client got, normalised (see the module's comment). */
  readonly answers: readonly string[];
}

export interface TrafficRow {
  readonly id: string;
  readonly description: string;
  /** The faulty reference gave an answer the clean one never gave. */
  readonly exercised: boolean;
  /** The first such answers (operation and status), to say where the fault showed. */
  readonly newAnswers: readonly string[];
  readonly proxy: { readonly caught: boolean; readonly checks: readonly string[] };
  readonly verify: { readonly caught: boolean; readonly checks: readonly string[] };
}

export interface TrafficMatrix {
  /** The clean reference's failed checks (each a false alarm), in the proxy and in verify. */
  readonly clean: {
    readonly proxy: readonly string[];
    readonly verify: readonly string[];
    readonly exchanges: number;
  };
  readonly rows: readonly TrafficRow[];
  readonly score: { readonly exercised: number; readonly proxy: number; readonly verify: number };
}

export interface TrafficMatrixOptions {
  readonly faults?: readonly string[];
  /** Faults judged at once (each has its own reference and proxy); default 3. */
  readonly concurrency?: number;
  readonly drive?: TrafficDriver;
  readonly config?: Partial<RunConfig>;
  readonly onRow?: (row: TrafficRow) => void;
}

const matrixConfig: RunConfig = { ...runConfigDefaults, specPath: bundledSpecPath, reporters: [] };

function failedChecks(events: readonly RunEvent[]): string[] {
  const failed = new Set<string>();
  for (const event of events) {
    if (event.type === "check" && event.result.outcome.status === "failed") failed.add(event.result.checkId);
    if (event.type === "case-finished")
      for (const result of event.results) if (result.outcome.status === "failed") failed.add(result.checkId);
  }
  return [...failed].sort();
}

/** One pass: the reference with `faults`, the proxy before it recording a HAR, the client, then verify on the HAR. */
export async function judgeTraffic(
  faults: readonly string[],
  spec: ApiSpec,
  dir: string,
  drive: TrafficDriver,
  config: RunConfig = matrixConfig,
): Promise<TrafficPass> {
  const name = faults.join("+") || "clean";
  const started = await startTarget({ ...config, baseUrl: undefined, faults: [...faults] }, spec);
  const caFile = join(dir, `${name}-${process.hrtime.bigint()}.pem`);
  const harFile = `${caFile}.har`;
  writeFileSync(caFile, started.target.ca ?? "");
  const proxyEvents: RunEvent[] = [];
  const har = new HarWriter(harFile, "traffic-matrix");
  const controller = new AbortController();
  let url = "";
  const listening = Promise.withResolvers<void>();
  const finished = runProxy(
    { ...config, caFile },
    {
      runId: `traffic-${name}`,
      listeners: [(event) => void proxyEvents.push(event), har.listener],
      signal: controller.signal,
      toolVersion: "traffic-matrix",
      target: new URL(started.target.baseUrl).origin,
      port: 0,
      onListening: (at) => {
        url = at;
        listening.resolve();
      },
    },
  );
  try {
    await Promise.race([listening.promise, finished]);
    await drive({
      baseUrl: `${url}/v4`,
      token: started.target.token ?? "",
      authUrl: url,
      ...(started.target.login ? { login: started.target.login } : {}),
    });
  } finally {
    controller.abort();
    await finished.finally(() => started.close());
  }
  const verifyEvents: RunEvent[] = [];
  await verifyRecordings(config, {
    runId: `traffic-${name}-verify`,
    listeners: [(event) => void verifyEvents.push(event)],
    signal: new AbortController().signal,
    toolVersion: "traffic-matrix",
    files: [harFile],
  });
  const exchanges = proxyEvents.flatMap((event) => (event.type === "exchange" ? [event.exchange] : []));
  return {
    proxyFailed: failedChecks(proxyEvents),
    verifyFailed: failedChecks(verifyEvents),
    exchanges: exchanges.length,
    answers: answersOf(exchanges),
  };
}

/** Headers whose values change from one run to the next by themselves. */
const volatileHeaders = new Set([
  "date",
  "x-ratelimit-reset",
  "content-length",
  "connection",
  "keep-alive",
  "etag",
]);
const timeShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/;
/** Random tokens, ids and secrets the reference draws: long hexadecimal runs, UUIDs. */
const randomHex = /\b[0-9a-f]{16,}\b/gi;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Addresses the reference draws (an IPv4, or one written into a hostname with dashes). */
const drawnAddress = /\b\d{1,3}([.-])\d{1,3}\1\d{1,3}\1\d{1,3}\b/g;

/** A value with what changes by itself (times, random hex) replaced by its shape; a time off "now" kept apart. */
function normalised(value: unknown, now: number): unknown {
  if (typeof value === "string") {
    if (timeShape.test(value)) {
      const at = Date.parse(/Z|[+-]\d{2}:\d{2}$/.test(value) ? value : `${value}Z`);
      return Math.abs(at - now) < 10 * 60_000 ? "<now>" : "<not now>";
    }
    if (uuid.test(value)) return "<uuid>";
    return value.replace(randomHex, (hex) => `<hex ${hex.length}>`).replace(drawnAddress, "<address>");
  }
  if (Array.isArray(value)) return value.map((item) => normalised(item, now));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalised(item, now)]));
  return value;
}

function headersText(headers: Readonly<Record<string, string>>): string {
  const limit = Number(headers["x-ratelimit-limit"]);
  return Object.keys(headers)
    .filter((name) => !volatileHeaders.has(name))
    .sort()
    .map((name) => {
      const value = headers[name] ?? "";
      if (name === "x-ratelimit-remaining")
        return `${name}: ${Number(value) < limit ? "below" : "at"} the limit`;
      return `${name}: ${uuid.test(value) ? "<uuid>" : value}`;
    })
    .join("; ");
}

/**
 * Each answer as one line (the request and status first). A read sent again and again in a row, answered with the
 * same status, is a poll: only its last answer counts, since what it saw on the way (`booting`, a node `Unknown`)
 * depends on timing alone.
 */
export function answersOf(exchanges: readonly Exchange[]): string[] {
  const lines: string[] = [];
  let lastAsked: string | undefined;
  for (const exchange of exchanges) {
    const { response } = exchange;
    const url = URL.parse(exchange.request.url);
    const { method, headers } = exchange.request;
    const where = normalised(`${url?.pathname}${url?.search}`, 0);
    const asked = `${method} ${where} ${headers["x-filter"] ?? ""} ${headers.authorization ?? "(no token)"} ${response?.status ?? exchange.error?.code}`;
    const body = response
      ? JSON.stringify(normalised(response.json ?? response.text, exchange.timings.startedAt))
      : "";
    const line = `${asked} | ${body} | ${response ? headersText(response.headers) : ""}`;
    if (asked === lastAsked && method === "GET") lines[lines.length - 1] = line;
    else lines.push(line);
    lastAsked = asked;
  }
  return lines;
}

export async function runTrafficMatrix(options: TrafficMatrixOptions = {}): Promise<TrafficMatrix> {
  const config = { ...matrixConfig, ...options.config };
  const drive = options.drive ?? runRealisticClient;
  const spec = await loadSpec(config.specPath);
  const dir = mkdtempSync(join(tmpdir(), "conform-traffic-matrix-"));
  try {
    const ids = options.faults?.length ? [...options.faults] : [...faultRegistry.keys()].sort();
    const [clean, again] = await Promise.all([
      judgeTraffic([], spec, dir, drive, config),
      judgeTraffic([], spec, dir, drive, config),
    ]);
    const baseline = new Set([...clean.answers, ...again.answers]);
    const rows: TrafficRow[] = new Array(ids.length);
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const index = next++;
        const id = ids[index]!;
        const pass = await judgeTraffic([id], spec, dir, drive, config);
        const newAnswers = pass.answers.filter((answer) => !baseline.has(answer));
        rows[index] = {
          id,
          description: faultRegistry.get(id)?.description ?? "",
          exercised: newAnswers.length > 0,
          newAnswers: newAnswers.slice(0, 3).map((answer) => answer.slice(0, 240)),
          proxy: { caught: pass.proxyFailed.length > 0, checks: pass.proxyFailed },
          verify: { caught: pass.verifyFailed.length > 0, checks: pass.verifyFailed },
        };
        options.onRow?.(rows[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 3) }, worker));
    const exercised = rows.filter((row) => row.exercised);
    return {
      clean: {
        proxy: [...new Set([...clean.proxyFailed, ...again.proxyFailed])].sort(),
        verify: [...new Set([...clean.verifyFailed, ...again.verifyFailed])].sort(),
        exchanges: clean.exchanges,
      },
      rows,
      score: {
        exercised: exercised.length,
        proxy: exercised.filter((row) => row.proxy.caught).length,
        verify: exercised.filter((row) => row.verify.caught).length,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dataPlane =
  "only the data plane shows it (connections through the balancer); the client talks to the API only";
const notMade = (mistake: string) => `the client does not ${mistake}`;

/**
 * Why the realistic client's traffic does not catch a fault: for each fault it does not exercise, what would reach
 * it; for each it exercises but nothing catches, why the traffic cannot show it wrong. The test keeps this table
 * true: every fault that is not caught has its reason, and no caught fault has one.
 */
export const missReasons: Readonly<Record<string, string>> = {
  "balancer-forwards-to-down-nodes": dataPlane,
  "balancer-wrong-port": dataPlane,
  "https-keeps-old-certificate": dataPlane,
  "port-never-listens": dataPlane,
  "nodes-never-up": "nothing listens on the client's nodes, so they are down on the clean reference too",
  "node-up-without-listener":
    "nodes_status and the node list agree (both up): that nothing listens on the nodes' port is not in the traffic",
  "boot-event-never-finishes":
    "the client sees the instance running and its boot event still started, which no documented rule forbids: the description and facts.md tie no event's status to its instance's (lifecycles and event kinds: not shown) and give no bound for an event to finish",
  "blank-subject-accepted": notMade("upload a certificate with a blank subject"),
  "duplicate-node-label-accepted": notMade("reuse a node label"),
  "node-other-region-accepted": notMade("register an instance of another region"),
  "port-shared-by-profiles": notMade("configure one port twice"),
  "malformed-json-500": notMade("send malformed JSON"),
  "first-error-only": "the client's one mistake (a balancer without its region) has one error",
  "page-size-out-of-range-accepted": notMade("ask for a page size out of range"),
  "huge-page-500": notMade("ask for a page beyond 2^64 / page_size"),
  "filter-unfilterable-accepted": notMade("filter on a field that is not filterable"),
  "child-listed-under-every-parent": "the client makes one load balancer: no other's profiles to show",
  "id-reused-after-delete": notMade("create a load balancer after deleting one"),
  "refused-create-leaves-half-made":
    "the client's refused create lacks its region, refused before anything is made",
  "expired-token-accepted": notMade("use an expired token"),
  "read-only-token-writes": notMade("write with its read_only OAuth token"),
  "refresh-token-reusable": notMade("use a refresh token twice"),
  "public-client-refresh-token": "the client's application is a private OAuth client (no implicit flow)",
  "rate-limit-not-enforced": "the client's few requests stay under every rate limit",
  "retry-after-missing": "the client's few requests stay under every rate limit: no 429",
};

const mark = (value: boolean) => (value ? "yes" : "no");

/** The matrix as a Markdown table, with its totals. */
export function matrixTable(matrix: TrafficMatrix): string {
  const lines = [
    "| fault | exercised | proxy | verify | caught by, or why not |",
    "|---|---|---|---|---|",
    ...matrix.rows.map(
      (row) =>
        `| ${row.id} | ${mark(row.exercised)} | ${mark(row.proxy.caught)} | ${mark(row.verify.caught)} | ${row.proxy.checks.join(", ") || missReasons[row.id] || "?"} |`,
    ),
    "",
    `Exercised ${matrix.score.exercised} of ${matrix.rows.length}; caught by the proxy ${matrix.score.proxy}/${matrix.score.exercised}, by verify ${matrix.score.verify}/${matrix.score.exercised}.`,
    `Clean reference (${matrix.clean.exchanges} exchanges): proxy failures [${matrix.clean.proxy.join(", ")}], verify failures [${matrix.clean.verify.join(", ")}].`,
  ];
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      faults: { type: "string" },
      concurrency: { type: "string", default: "3" },
      json: { type: "string" },
    },
  });
  const matrix = await runTrafficMatrix({
    ...(values.faults ? { faults: values.faults.split(",") } : {}),
    concurrency: Number(values.concurrency),
    onRow: (row) => process.stderr.write(`${row.id}: ${row.exercised ? "exercised" : "not exercised"}\n`),
  });
  process.stdout.write(`${matrixTable(matrix)}\n`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(matrix, null, 2)}\n`);
}
