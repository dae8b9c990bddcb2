/**
 * Section 7's worker, in a fresh child process (`node bench/requests-child.ts <out.json> [--faults]`): a full
 * clean run as `npm start` makes it (every suite against the embedded reference, seed 0), with every request the
 * run put on the wire seen through undici's `undici:request:create` diagnostics channel (the only place the
 * caller's identity is visible: recorded exchanges carry the token redacted) and every exchange event (which
 * suite sent it); then, with `--faults`, the fault matrix as `npm run faults` runs it (`--faults=<ids>`: those
 * faults only). Writes what it saw as JSON.
 * @module
 */
import { createHash } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";
import { runFaultMatrix } from "../src/fault-score/score.ts";
import { runConfigDefaults } from "../src/runner/config.ts";
import { runConformance } from "../src/runner/run.ts";
import { bundledSpecPath } from "../src/spec/bundled.ts";
import type { ChildOutput, SentRequest } from "./requests.ts";

const [outFile, faultsFlag] = process.argv.slice(2);
if (!outFile) throw new Error("usage: node bench/requests-child.ts <out.json> [--faults[=<id>,<id>...]]");
/** `--faults`: every fault; `--faults=a,b`: those; none: no fault matrix. */
const faultIds = faultsFlag?.startsWith("--faults")
  ? faultsFlag
      .slice("--faults=".length)
      .split(",")
      .filter((id) => id !== "")
  : undefined;

/** Headers that name no resource and change no answer: left out of a request's identity. */
const ignoredHeaders = new Set(["user-agent", "content-length", "host", "connection"]);

function identityOf(authorization: string | undefined): string {
  return authorization === undefined
    ? "anonymous"
    : createHash("sha256").update(authorization).digest("base64url").slice(0, 8);
}

const wire: SentRequest[] = [];
const onCreate = (message: unknown) => {
  const request = (message as { request: { method: string; path: string; headers: unknown } }).request;
  const flat = Array.isArray(request.headers) ? (request.headers as unknown[]).map(String) : [];
  const headers: Record<string, string> = {};
  let authorization: string | undefined;
  for (let index = 0; index + 1 < flat.length; index += 2) {
    const name = flat[index]!.toLowerCase();
    if (name === "authorization") authorization = flat[index + 1];
    else if (!ignoredHeaders.has(name)) headers[name] = flat[index + 1]!;
  }
  wire.push({ method: request.method, path: request.path, headers, caller: identityOf(authorization) });
};

const sentBy: { method: string; path: string; headers: Record<string, string>; suiteId: string }[] = [];
let exchanges = 0;
subscribe("undici:request:create", onCreate);
const started = performance.now();
const finished = await runConformance(
  { ...runConfigDefaults, specPath: bundledSpecPath, reporters: [] },
  {
    runId: "bench-requests",
    signal: new AbortController().signal,
    toolVersion: "bench",
    listeners: [
      (event) => {
        if (event.type !== "exchange") return;
        exchanges += 1;
        const { request } = event.exchange;
        const url = new URL(request.url);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          if (name !== "authorization" && !ignoredHeaders.has(name)) headers[name] = value;
        sentBy.push({
          method: request.method,
          path: url.pathname + url.search,
          headers,
          suiteId: event.suiteId,
        });
      },
    ],
  },
);
const cleanMs = performance.now() - started;
unsubscribe("undici:request:create", onCreate);

const output: ChildOutput = {
  clean: {
    durationMs: cleanMs,
    exitCode: finished.exitCode,
    counts: { ...finished.counts },
    exchanges,
    wire,
    sentBy,
  },
};

if (faultIds) {
  const matrix = await runFaultMatrix({
    runId: "bench-requests-faults",
    faults: faultIds,
    config: { ...runConfigDefaults, specPath: bundledSpecPath, seed: 1, concurrency: 4 },
    concurrency: 2,
    toolVersion: "bench",
    signal: new AbortController().signal,
    onRow: (row, done, total) =>
      process.stderr.write(
        `bench: 7. fault matrix [${done}/${total}] ${row.caught ? "caught" : "ESCAPED"} ${row.id}\n`,
      ),
  });
  output.faults = {
    rows: matrix.rows.map((row) => ({
      id: row.id,
      caught: row.caught,
      requestsToDetection: row.requestsToDetection,
      requests: row.requests,
    })),
    cleanRequests: matrix.clean.requests,
    cleanPassed: matrix.clean.passed,
    caught: matrix.score.caught,
    total: matrix.score.total,
  };
}
writeFileSync(outFile, JSON.stringify(output));
