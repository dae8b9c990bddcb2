/**
 * Section 1: spec loading. For the bundled description and the large synthetic one: load + validate + index time
 * (`loadSpec`, validation on), the time to compile one validator (the first of a loaded spec, so it includes
 * setting up ajv with the document) and all of them, timed warm in this process (after warm-up runs, a full GC
 * before each); and, in fresh child processes that each load it once and compile every validator, the cold
 * times (what a CLI start pays) and the peak memory (their maxRSS).
 * @module
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadSpec } from "../src/spec/load.ts";
import type { ApiSpec, OperationInfo } from "../src/spec/types.ts";
import { collectGarbage, repeat, type Summary, summarize } from "./measure.ts";

export interface SpecSubject {
  readonly name: string;
  readonly path: string;
  readonly bytes: number;
}

/** What one fresh child process measured (spec-memory-child.ts). */
export interface ColdSample {
  /** maxRSS of a fresh process that loaded the description and compiled every validator. */
  readonly peakRssBytes: number;
  /** RSS of that process after its imports, before loading: the loader's share is the difference. */
  readonly baselineRssBytes: number;
  /** Load time in that fresh (cold, not warmed up) process: what a CLI start pays. */
  readonly coldLoadMs: number;
  readonly coldAllValidatorsMs: number;
}

/** Cold figures over several fresh processes. */
export interface SpecMemory {
  readonly peakRssBytes: Summary;
  readonly baselineRssBytes: Summary;
  readonly coldLoadMs: Summary;
  readonly coldAllValidatorsMs: Summary;
}

export interface SpecLoadingResult {
  readonly name: string;
  readonly bytes: number;
  readonly operations: number;
  readonly validators: number;
  readonly loadMs: Summary;
  readonly firstValidatorMs: Summary;
  readonly allValidatorsMs: Summary;
  readonly memory: SpecMemory | { readonly error: string };
  readonly cutShort: boolean;
}

/** One validator request: an operation's response for a status and content type, or its request body. */
type ValidatorCall = (spec: ApiSpec) => unknown;

/** A status number that `status` (`"200"`, `"4XX"`, `"default"`) answers for, among the operation's statuses. */
export function statusFor(status: string, declared: readonly string[]): number | undefined {
  if (/^\d{3}$/.test(status)) return Number(status);
  const range = /^([1-5])XX$/i.exec(status);
  if (range) {
    for (let code = Number(range[1]) * 100; code < Number(range[1]) * 100 + 100; code += 1) {
      if (!declared.includes(String(code))) return code;
    }
    return undefined;
  }
  if (status === "default") {
    for (let code = 599; code >= 100; code -= 1) {
      const codeRange = `${Math.floor(code / 100)}XX`;
      if (!declared.includes(String(code)) && !declared.some((other) => other.toUpperCase() === codeRange))
        return code;
    }
  }
  return undefined;
}

/** Every validator a run could ask for: each documented response (status, content type) and request body. */
export function validatorCalls(operations: readonly OperationInfo[]): ValidatorCall[] {
  const calls: ValidatorCall[] = [];
  for (const operation of operations) {
    const declared = operation.responses.map((response) => response.status);
    for (const response of operation.responses) {
      if (!response.hasSchema) continue;
      const status = statusFor(response.status, declared);
      if (status === undefined) continue;
      for (const contentType of response.contentTypes) {
        calls.push((spec) => spec.validators.response(operation.operationId, status, contentType));
      }
    }
    for (const contentType of operation.requestBody?.contentTypes ?? []) {
      calls.push((spec) => spec.validators.request(operation.operationId, contentType));
    }
  }
  return calls;
}

/** The validator the "one validator" figure compiles: the first paginated list's 200 page (the common case). */
export function representativeCall(operations: readonly OperationInfo[]): ValidatorCall {
  const list = operations.find((operation) => operation.paginated) ?? operations[0];
  if (!list) throw new Error("the description has no operations");
  return (spec) => spec.validators.response(list.operationId, 200);
}

/** Loads, compiles one validator, then all; returns the three times in ms and the validator count. */
export async function loadOnce(
  path: string,
): Promise<{ loadMs: number; firstMs: number; allMs: number; validators: number; operations: number }> {
  const started = performance.now();
  const spec = await loadSpec(path);
  const loaded = performance.now();
  const operations = spec.operations.all();
  representativeCall(operations)(spec);
  const first = performance.now();
  for (const call of validatorCalls(operations)) call(spec);
  const all = performance.now();
  return {
    loadMs: loaded - started,
    firstMs: first - loaded,
    allMs: all - first,
    validators: spec.validators.compiledCount(),
    operations: operations.length,
  };
}

const childFile = fileURLToPath(new URL("./spec-memory-child.ts", import.meta.url));

async function coldRuns(path: string, runs: number): Promise<SpecMemory | { error: string }> {
  const samples: ColdSample[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const { stdout } = await promisify(execFile)(process.execPath, [childFile, path], {
        timeout: 60_000,
        maxBuffer: 1024 * 1024,
      });
      samples.push(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as ColdSample);
    }
  } catch (error) {
    return { error: (error as Error).message };
  }
  const of = (pick: (sample: ColdSample) => number) => summarize(samples.map(pick));
  return {
    peakRssBytes: of((sample) => sample.peakRssBytes),
    baselineRssBytes: of((sample) => sample.baselineRssBytes),
    coldLoadMs: of((sample) => sample.coldLoadMs),
    coldAllValidatorsMs: of((sample) => sample.coldAllValidatorsMs),
  };
}

export async function benchSpecLoading(
  subjects: readonly SpecSubject[],
  options: { warmup: number; reps: number; maxMs: number; coldRuns: number },
): Promise<SpecLoadingResult[]> {
  const results: SpecLoadingResult[] = [];
  for (const subject of subjects) {
    const { samples, cutShort } = await repeat({ ...options, minReps: 3 }, () => {
      collectGarbage();
      return loadOnce(subject.path);
    });
    const last = samples.at(-1);
    results.push({
      name: subject.name,
      bytes: subject.bytes,
      operations: last?.operations ?? 0,
      validators: last?.validators ?? 0,
      loadMs: summarize(samples.map((sample) => sample.loadMs)),
      firstValidatorMs: summarize(samples.map((sample) => sample.firstMs)),
      allValidatorsMs: summarize(samples.map((sample) => sample.allMs)),
      memory: await coldRuns(subject.path, options.coldRuns),
      cutShort,
    });
  }
  return results;
}
