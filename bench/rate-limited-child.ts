/**
 * Section 6's run, in its own process: the full writing run (every suite, writes allowed, the seeded login user)
 * against a base URL (the reference server child with the description's limits), in-process through
 * `runConformance` with no reporters, so one listener sees every exchange with its suite. The wire is watched on
 * undici's diagnostics channels: for each answer, who asked (a digest of its Authorization header, or none: the
 * client address) and the `X-RateLimit-*` it carried, which is all the bound needs (the exchanges' records have
 * the token redacted). The token is never kept: only its digest.
 *
 * Input: `CONFORM_BENCH_RUN` (JSON: baseUrl, authUrl, caFile, login, out) and `CONFORM_TOKEN`. Output: the file
 * `out` (JSON {@link RateLimitedRunRecord}).
 * @module
 */
import { createHash } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";
import { runConfigDefaults } from "../src/runner/config.ts";
import { runConformance } from "../src/runner/run.ts";

/** One answer as the wire showed it. */
export interface WireAnswer {
  /** Digest of the Authorization header; "" without one (counted by client address). */
  readonly caller: string;
  readonly method: string;
  readonly path: string;
  /** Epoch ms: the request created, and its answer's headers received. */
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly status: number;
  readonly limit?: number;
  readonly remaining?: number;
  /** Epoch seconds. */
  readonly reset?: number;
}

export interface RateLimitedRunRecord {
  /** runConformance, call to return (spec loading, every suite, cleanup). */
  readonly wallMs: number;
  readonly exitCode: number;
  readonly counts: Readonly<Record<string, number>>;
  /** Each skipped case and its reason, so the counts say what was not run against this target. */
  readonly skipped?: readonly string[];
  readonly answers: readonly WireAnswer[];
  /** 429 answers per suite, as the run's exchange events show them. */
  readonly rateLimitedBySuite: Readonly<Record<string, number>>;
  readonly exchanges: number;
  readonly error?: string;
}

interface UndiciRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: readonly string[] | string;
}

const digest = (value: string) => createHash("sha256").update(value).digest("base64url").slice(0, 12);

function authorizationOf(request: UndiciRequest): string {
  const headers = request.headers;
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index += 2)
      if (String(headers[index]).toLowerCase() === "authorization") return String(headers[index + 1]);
    return "";
  }
  return /^authorization:\s*(.*)$/im.exec(String(headers))?.[1]?.trim() ?? "";
}

/** Response headers as undici hands them to the channel: raw name/value buffers, or an object. */
function headerOf(headers: unknown, name: string): string | undefined {
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index += 2)
      if (String(headers[index]).toLowerCase() === name) return String(headers[index + 1]);
    return undefined;
  }
  const value = (headers as Record<string, unknown> | undefined)?.[name];
  return value === undefined ? undefined : String(value);
}

const integer = (value: string | undefined) =>
  value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;

async function main(): Promise<void> {
  const input = JSON.parse(process.env.CONFORM_BENCH_RUN ?? "{}") as {
    baseUrl: string;
    authUrl: string;
    caFile: string;
    login: { username: string; password: string };
    out: string;
  };
  const token = process.env.CONFORM_TOKEN;
  const sent = new WeakMap<object, { caller: string; sentAt: number }>();
  const answers: WireAnswer[] = [];
  subscribe("undici:request:create", (message) => {
    const { request } = message as { request: UndiciRequest };
    const authorization = authorizationOf(request);
    sent.set(request, { caller: authorization ? digest(authorization) : "", sentAt: Date.now() });
  });
  subscribe("undici:request:headers", (message) => {
    const { request, response } = message as {
      request: UndiciRequest;
      response: { statusCode: number; headers: unknown };
    };
    const from = sent.get(request);
    if (!from) return;
    const limit = integer(headerOf(response.headers, "x-ratelimit-limit"));
    const remaining = integer(headerOf(response.headers, "x-ratelimit-remaining"));
    const reset = integer(headerOf(response.headers, "x-ratelimit-reset"));
    answers.push({
      caller: from.caller,
      method: request.method,
      path: request.path.split("?")[0] ?? request.path,
      sentAt: from.sentAt,
      answeredAt: Date.now(),
      status: response.statusCode,
      ...(limit === undefined ? {} : { limit }),
      ...(remaining === undefined ? {} : { remaining }),
      ...(reset === undefined ? {} : { reset }),
    });
  });
  const rateLimitedBySuite: Record<string, number> = {};
  let exchanges = 0;
  const skipped: string[] = [];
  const started = performance.now();
  let record: RateLimitedRunRecord;
  try {
    const finished = await runConformance(
      {
        ...runConfigDefaults,
        baseUrl: input.baseUrl,
        authUrl: input.authUrl,
        token,
        caFile: input.caFile,
        allowWrites: true,
        reporters: [],
        // The reference server in its child is a loopback target: its balancers are reached on their stand-ins.
        suiteOptions: { login: input.login, dataPlane: true },
      },
      {
        runId: "bench-rate-limited",
        toolVersion: "bench",
        signal: new AbortController().signal,
        listeners: [
          (event) => {
            if (event.type === "case-finished" && event.status === "skipped")
              skipped.push(`${event.suiteId}/${event.caseId}: ${event.skipReason ?? "no reason given"}`);
            if (event.type !== "exchange") return;
            exchanges += 1;
            if (event.exchange.response?.status === 429)
              rateLimitedBySuite[event.suiteId] = (rateLimitedBySuite[event.suiteId] ?? 0) + 1;
          },
        ],
      },
    );
    record = {
      wallMs: performance.now() - started,
      exitCode: finished.exitCode,
      counts: finished.counts as unknown as Record<string, number>,
      skipped,
      answers,
      rateLimitedBySuite,
      exchanges,
    };
  } catch (error) {
    record = {
      wallMs: performance.now() - started,
      exitCode: 2,
      counts: {},
      answers,
      rateLimitedBySuite,
      exchanges,
      error: String((error as Error)?.message ?? error),
    };
  }
  writeFileSync(input.out, JSON.stringify(record));
}

await main();
