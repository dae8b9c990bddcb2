/**
 * Shared option helpers: comma- or space-separated lists, the run id, reading a JSON or YAML config file.
 * @module
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../core/errors.ts";
import { InputFileRefused, inputLimits, readInputFile } from "../core/input-file.ts";

/** `--reporter console,json --reporter html` → ["console", "json", "html"]. */
export function listOption(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items.flatMap((item) => String(item).split(/[,\s]+/)).filter(Boolean);
}

/** A sortable, unique run id: `20261123T021500Z-3fa0`. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${randomBytes(2).toString("hex")}`;
}

/** Options a config file holds as an object (settings for suites); every other is a value or a list of values. */
const objectOptions = new Set(["suite-options"]);

const isScalar = (value: unknown) => ["string", "number", "boolean"].includes(typeof value);

/** What is wrong with one option of a config file, or undefined: yargs would take an object as text, silently. */
function optionProblem([name, value]: [string, unknown]): string | undefined {
  if (objectOptions.has(name))
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? undefined
      : `${JSON.stringify(name)} must be an object of settings`;
  if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) return undefined;
  return `${JSON.stringify(name.slice(0, 60))} must be a text, a number, true or false, or a list of them`;
}

/** The config files read from the current folder when no `--config` is given, the first found. */
export const configFileNames = ["conform.yaml", "conform.yml", "conform.json"] as const;

/** The current folder's config file (its name, as yargs resolves it against the folder), or undefined. */
export function foundConfigFile(cwd = process.cwd()): string | undefined {
  return configFileNames.find((name) => existsSync(`${cwd}/${name}`));
}

/**
 * The config file's errors as thrown: yargs re-throws a config parser's error as a plain YError with its message, so
 * `main` finds the ConfigError (and its code) here by that message.
 */
let lastConfigError: ConfigError | undefined;

/** The ConfigError `readConfigFile` threw with this message, if it was the last it threw. */
export function configErrorWithMessage(message: string): ConfigError | undefined {
  return lastConfigError?.message === message ? lastConfigError : undefined;
}

/** Reads a config file (JSON, or YAML by extension) into yargs' option object, each option's value checked. */
export function readConfigFile(path: string): Record<string, unknown> {
  try {
    return readConfigFileChecked(path);
  } catch (error) {
    if (error instanceof ConfigError) lastConfigError = error;
    throw error;
  }
}

function readConfigFileChecked(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readInputFile(path, inputLimits.config);
  } catch (error) {
    if (!(error instanceof InputFileRefused)) throw error;
    throw new ConfigError(`config file ${path} ${error.message}`);
  }
  try {
    const parsed: unknown = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("it must hold an object of options");
    }
    const problem = Object.entries(parsed).map(optionProblem).find(Boolean);
    if (problem) throw new Error(problem);
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`config file ${path} is not valid: ${(error as Error).message}`);
  }
}

/** What a numeric option accepts: an integer or any finite number, from `min` (or above it) up to `max`. */
export interface NumberRule {
  readonly integer: boolean;
  readonly min: number;
  /** True when `min` itself is refused (a time scale above 0). */
  readonly above?: boolean;
  readonly max?: number;
}

/**
 * yargs' `coerce` for every numeric option, which is declared without a `type` (main() turns yargs' own number
 * parsing off): the text given must be a plain decimal number (`1000`, `-1`, `0.05`); anything else (``, `1e3`,
 * `0x10`, `Infinity`, ` 7`) becomes NaN, which `checkNumbers` refuses naming the option. yargs' `number` type would
 * take `Number(text)`: '' as 0, `1e3` as 1000, `0x10` as 16. A number (a default, a config file's) is kept.
 */
export function plainNumber(value: unknown): number {
  if (typeof value === "number") return value;
  return typeof value === "string" && /^-?(\d+(\.\d+)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
}

/** The largest timer yargs' numbers may ask for: Node's timers hold 2^31 - 1 ms (about 24.8 days). */
export const maxTimerMs = 2 ** 31 - 1;

/** The rules of the numeric options, by option name; commands pick theirs. */
export const numberRules = Object.freeze({
  /** A seed replays the same values: an integer fast-check takes as it is (32 bits). */
  seed: { integer: true, min: 0, max: 2 ** 32 - 1 },
  concurrency: { integer: true, min: 1 },
  timeout: { integer: true, min: 1, max: maxTimerMs },
  "max-failures": { integer: true, min: 0 },
  runs: { integer: true, min: 1 },
  port: { integer: true, min: 0, max: 65_535 },
  "time-scale": { integer: false, min: 0, above: true },
  "max-response-bytes": { integer: true, min: 1 },
  "max-request-bytes": { integer: true, min: 1 },
  "max-confirmations": { integer: true, min: 1 },
  "kept-body-bytes": { integer: true, min: 0 },
  "kept-report-bytes": { integer: true, min: 0 },
  "request-deadline": { integer: true, min: 1, max: maxTimerMs },
  "max-wait": { integer: true, min: 0, max: maxTimerMs },
  "max-time": { integer: true, min: 1, max: maxTimerMs },
  /**
   * Minutes between the proxy's report snapshots; fractions allowed (0.5: every 30 s), from 0.005 (0.3 s: every
   * report file rewritten more often is only load) to a timer's reach.
   */
  "report-every": { integer: false, min: 0.005, max: Math.floor(maxTimerMs / 60_000) },
} satisfies Record<string, NumberRule>);

function accepted(rule: NumberRule): string {
  const kind = rule.integer ? "an integer" : "a number";
  if (rule.max !== undefined)
    return rule.above
      ? `${kind} above ${rule.min}, up to ${rule.max}`
      : `${kind} from ${rule.min} to ${rule.max}`;
  return `${kind} ${rule.above ? "above" : "of at least"} ${rule.min}`;
}

/**
 * What is wrong with one numeric option's value, in one line naming the option; undefined when it keeps its rule
 * or was not given. `plainNumber` turns text that is not a plain number (`--seed abc`) into NaN.
 */
export function numberProblem(option: string, value: unknown, rule: NumberRule): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || Number.isNaN(value))
    return `--${option} is not a number: give ${accepted(rule)}`;
  const fits =
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    (rule.above ? value > rule.min : value >= rule.min) &&
    (rule.max === undefined || value <= rule.max);
  return fits ? undefined : `--${option} ${value}: give ${accepted(rule)}`;
}

/** Throws a ConfigError (exit 2) for the first of `options` (named in `numberRules`) whose value breaks its rule. */
export function checkNumbers(
  args: Readonly<Record<string, unknown>>,
  options: readonly (keyof typeof numberRules)[],
): true {
  for (const option of options) {
    const problem = numberProblem(option, args[option], numberRules[option]);
    if (problem) throw new ConfigError(problem);
  }
  return true;
}
