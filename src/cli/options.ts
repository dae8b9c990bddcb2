/**
 * Shared option helpers: comma- or space-separated lists, the run id, reading a JSON or YAML config file.
 * @module
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../core/errors.ts";

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

/** Reads a config file (JSON, or YAML by extension) into yargs' option object. */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`config file ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("it must hold an object of options");
    }
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`config file ${path} is not valid: ${(error as Error).message}`);
  }
}
