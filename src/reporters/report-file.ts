/**
 * Reading a report.json written by someone else (`merge-reports`, `diff`, `--baseline`, `--durations`): untrusted input.
 * The file is size-capped, parsed, and validated against `report.schema.json` (types, shapes, bounds) before a
 * field of it is used; every number in it must be one a sum keeps exact. What is wrong is one line naming the file
 * and the first place (a ConfigError: exit 2), never a TypeError later. Fields a reader of major version 2 may
 * miss (added by 2.1: selection, shard, mergedFrom, baseline) are not demanded here; whoever needs one says so.
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { ConfigError } from "../core/errors.ts";
import { InputFileRefused, inputLimits, readInputFile } from "../core/input-file.ts";
import { packagePath } from "../core/package-files.ts";
import type { JsonReport } from "./json.ts";

/** Root fields added by report format 2.1: an older 2.x report lacks them and is still a report. */
const addedSince20 = new Set(["selection", "shard", "mergedFrom", "baseline"]);

/** The largest number a report may hold: counts summed over any number of shards stay exact far below 2^53. */
export const largestReportNumber = 2 ** 48;

let validator: ValidateFunction | undefined;

function validate(value: unknown): ErrorObject[] {
  if (!validator) {
    const schema = JSON.parse(
      // Through the package's root: the build (dist/src/) ships no copy beside this module.
      readFileSync(packagePath("src/reporters/report.schema.json"), "utf8"),
    ) as object;
    // Required here, not imported: the run command's options read reports, and `--help` must not load ajv.
    const require = createRequire(import.meta.url);
    const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    const addFormats = require("ajv-formats") as typeof import("ajv-formats").default;
    const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
    addFormats(ajv);
    validator = ajv.compile(schema);
  }
  if (validator(value)) return [];
  return (validator.errors ?? []).filter(
    (error) =>
      !(
        error.keyword === "required" &&
        error.instancePath === "" &&
        addedSince20.has(String(error.params.missingProperty))
      ) &&
      // A `oneOf` fails with its branches; the branch's own error says more.
      error.keyword !== "oneOf",
  );
}

/** Deeper than any report conform writes (recorded bodies stop at 256 levels): the reporters' writers recurse. */
const deepestReport = 512;

/**
 * What no schema keyword says (no recursion: a crafted file nests a million deep): the first number beyond
 * {@link largestReportNumber}, or the first place nested deeper than {@link deepestReport}, as a problem at a pointer.
 */
function shapeProblem(value: unknown): { at: string; problem: string } | undefined {
  const pending: [unknown, string, number][] = [[value, "", 0]];
  while (pending.length > 0) {
    const [item, pointer, depth] = pending.pop()!;
    if (typeof item === "number") {
      if (!(Math.abs(item) <= largestReportNumber))
        return { at: pointer || "/", problem: "a number beyond 2^48" };
    } else if (typeof item === "object" && item !== null) {
      if (depth >= deepestReport)
        return { at: pointer, problem: `nested deeper than ${deepestReport} levels` };
      for (const [key, entry] of Object.entries(item)) pending.push([entry, `${pointer}/${key}`, depth + 1]);
    }
  }
  return undefined;
}

/** The property an `additionalProperties` error is about (ajv's message does not name it). */
const extraOf = (error: ErrorObject) =>
  error.keyword === "additionalProperties" ? ` (${shown(String(error.params.additionalProperty))})` : "";

/** A one-line, printable rendering of a pointer or value taken from the file. */
const shown = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/**
 * The report at `file`, validated. `what` names it in messages (`--from-report reports/x/report.json`).
 * @throws ConfigError (exit 2) when it cannot be read, is too large, is not JSON, or not a 2.x report.
 */
export function readReportFile(file: string, what = file): JsonReport {
  let text: string;
  try {
    text = readInputFile(file, inputLimits.report);
  } catch (error) {
    if (error instanceof InputFileRefused) throw new ConfigError(`${what}: ${error.message}`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${what}: not a readable report.json (${(error as Error).message})`);
  }
  const version = (parsed as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || !/^2\./.test(String(version)))
    throw new ConfigError(`${what}: not a conform report.json (schemaVersion 2.x)`);
  const shape = shapeProblem(parsed);
  if (shape)
    throw new ConfigError(`${what}: not a valid report.json: at ${shown(shape.at)} ${shape.problem}`);
  const problems = validate(parsed);
  const first = problems[0];
  if (first) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    throw new ConfigError(
      `${what}: not a valid report.json: at ${shown(first.instancePath || "/")} ${first.message ?? "invalid"}${extraOf(first)}${more}`,
    );
  }
  return parsed as JsonReport;
}
