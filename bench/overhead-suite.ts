/**
 * The bench-only suite of section 2(a): cases that each send a run of the same GET, in order, through the case
 * context (`t.api.get`), so each request takes the engine's whole path: pacing, the HTTP client, redaction at
 * recording, every enabled check, the event stream. `writeOverheadSuites` writes one suite file per concurrent
 * lane into a temporary folder, loaded with `suitePaths` (the engine runs suites concurrently, cases in order).
 * @module
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { defineSuite, type Suite } from "../src/index.ts";

export interface OverheadSuiteOptions {
  readonly id: string;
  readonly cases: number;
  readonly requestsPerCase: number;
  /** Relative to the target's base URL, e.g. `/nodebalancers`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number>>;
  /** The X-Filter header, as an object. */
  readonly filter?: unknown;
}

export function overheadSuite(options: OverheadSuiteOptions): Suite {
  return defineSuite({
    id: options.id,
    title: `Bench: ${options.cases} x ${options.requestsPerCase} GET ${options.path}`,
    tags: ["read-only", "bench"],
    cases: Array.from({ length: options.cases }, (_, index) => ({
      id: `case-${index + 1}`,
      title: `requests ${index * options.requestsPerCase + 1} to ${(index + 1) * options.requestsPerCase}`,
      run: async (t) => {
        for (let i = 0; i < options.requestsPerCase; i += 1) {
          await t.api.get(options.path, {
            ...(options.query ? { query: options.query } : {}),
            ...(options.filter !== undefined ? { filter: options.filter } : {}),
          });
        }
      },
    })),
  });
}

/**
 * Writes `lanes` suite files (`bench-overhead-1` ...) that split `total` requests between them, into a new
 * temporary folder; returns the folder and the suite ids.
 */
export function writeOverheadSuites(
  lanes: number,
  total: number,
  requestsPerCase: number,
  request: Pick<OverheadSuiteOptions, "path" | "query" | "filter">,
): { dir: string; ids: string[]; requests: number } {
  const dir = mkdtempSync(join(tmpdir(), "conform-bench-suites-"));
  const cases = Math.max(1, Math.round(total / lanes / requestsPerCase));
  const factory = pathToFileURL(join(import.meta.dirname, "overhead-suite.ts")).href;
  const ids: string[] = [];
  for (let lane = 1; lane <= lanes; lane += 1) {
    const id = `bench-overhead-${lane}`;
    ids.push(id);
    const options: OverheadSuiteOptions = { id, cases, requestsPerCase, ...request };
    writeFileSync(
      join(dir, `${id}.suite.mjs`),
      `import { overheadSuite } from ${JSON.stringify(factory)};\nexport default overheadSuite(${JSON.stringify(options)});\n`,
    );
  }
  return { dir, ids, requests: lanes * cases * requestsPerCase };
}
