/**
 * Labels of resources a run creates: `<prefix>-<run>-<name>`, within the strictest label rules of the API
 * (load balancers: 3..32 characters of `[a-zA-Z0-9_-]`; instances: no `--`, alphanumeric at both ends), unique
 * within the run. `conform cleanup` finds leftovers by the prefix (`labelPrefixOf`: printed at the start and the end of
 * a run and stored in report.json as `labelPrefix`).
 * @module
 */

const maxLength = 32;

/** The label prefix of a run: `<prefix>-<last six letters or digits of the run id>`, e.g. `conform-8ze180`. */
export function labelPrefixOf(prefix: string, runId: string): string {
  const runTag = runId
    .replace(/[^a-z0-9]/gi, "")
    .slice(-6)
    .toLowerCase();
  return `${sanitize(prefix) || "conform"}-${runTag}`;
}

export class LabelMaker {
  readonly #stem: string;
  readonly #used = new Map<string, number>();

  constructor(prefix: string, runId: string) {
    this.#stem = labelPrefixOf(prefix, runId);
  }

  /** The prefix shared by every label of this run. */
  get stem(): string {
    return this.#stem;
  }

  make(name: string): string {
    const base = sanitize(name) || "item";
    const count = (this.#used.get(base) ?? 0) + 1;
    this.#used.set(base, count);
    const suffix = count > 1 ? `-${count}` : "";
    const room = maxLength - this.#stem.length - 1 - suffix.length;
    const trimmed = base.slice(0, Math.max(1, room)).replace(/-+$/, "");
    return `${this.#stem}-${trimmed}${suffix}`;
  }
}

function sanitize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
