/**
 * Which suites a run executes: by id, by tag, minus excluded tags, and the safety rule that suites which write
 * run against a real target only with `--allow-writes`.
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { Suite } from "./suite-api.ts";

export interface SelectionOptions {
  readonly suites: readonly string[];
  readonly tags: readonly string[];
  readonly excludeTags: readonly string[];
  readonly allowWrites: boolean;
  readonly embedded: boolean;
}

export interface Selection {
  readonly selected: readonly Suite[];
  /** Suites left out for safety, each with the reason (reported, never silently dropped). */
  readonly refused: readonly { readonly suite: Suite; readonly reason: string }[];
}

export const writesRefusal =
  "it creates and deletes resources (tag `writes`) and the target is not the embedded reference server: " +
  "pass --allow-writes to run it against this target";

export function selectSuites(all: readonly Suite[], options: SelectionOptions): Selection {
  const known = new Set(all.map((suite) => suite.id));
  const unknown = options.suites.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new ConfigError(
      `unknown suite ${unknown.join(", ")}; known suites: ${[...known].sort().join(", ")}`,
    );
  }
  // A misspelt tag would select nothing, or worse, exclude nothing (a costly suite run by mistake): refused.
  const knownTags = new Set(
    all.flatMap((suite) => [...suite.tags, ...suite.cases.flatMap((entry) => entry.tags ?? [])]),
  );
  for (const [option, tags] of [
    ["--tag", options.tags],
    ["--exclude-tag", options.excludeTags],
  ] as const) {
    const unknownTags = tags.filter((tag) => !knownTags.has(tag));
    if (unknownTags.length > 0) {
      throw new ConfigError(
        `unknown tag ${unknownTags.join(", ")} (${option}); tags of the suites and their cases: ${[...knownTags].sort().join(", ")}`,
      );
    }
  }
  const chosen = all.filter(
    (suite) =>
      (options.suites.length === 0 || options.suites.includes(suite.id)) &&
      (options.tags.length === 0 || suite.tags.some((tag) => options.tags.includes(tag))) &&
      !suite.tags.some((tag) => options.excludeTags.includes(tag)),
  );
  if (options.embedded || options.allowWrites) return { selected: chosen, refused: [] };
  const refused = chosen.filter((suite) => suite.tags.includes("writes"));
  const named = refused.filter((suite) => options.suites.includes(suite.id));
  if (named.length > 0) {
    throw new ConfigError(`suite ${named.map((suite) => suite.id).join(", ")} refused: ${writesRefusal}`);
  }
  return {
    selected: chosen.filter((suite) => !suite.tags.includes("writes")),
    refused: refused.map((suite) => ({ suite, reason: writesRefusal })),
  };
}
