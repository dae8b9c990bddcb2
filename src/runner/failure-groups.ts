/**
 * Failure groups: failures with the same check and the same message *shape* (the message with its numbers,
 * quoted values, ids and times replaced by placeholders) are one group, whatever operation or case they came from.
 * One header wrong on every answer is then one group per check with its count, not thousands of failures that
 * bury the target's other defects. The operations a group was seen on are counted inside it.
 *
 * The engine owns one {@link FailureGroups} per run: each failed result is assigned its group as it is recorded, and
 * only the first {@link keptExchangesPerGroup} failures of a group keep their exchange in full (the rest are counted),
 * so memory and the reports stay bounded however often the same failure repeats.
 * @module
 */
import { createHash } from "node:crypto";
import type { FailureGroup, FailureGroupOpened } from "../core/events.ts";
import { isAssertion } from "../core/result.ts";

/** Exchanges kept in full per group over the whole run (report.schema.json says the same). */
export const keptExchangesPerGroup = 3;
/** Case ids a group names (the first ones it failed in); the rest are counted. */
export const namedCasesPerGroup = 5;
/** Operations a group names with their counts (the most frequent); the rest are counted. */
export const namedOperationsPerGroup = 5;

/** The result id prefix of an errored case's group: `error:<code>`. */
export const errorGroupPrefix = "error:";

const shapeRules: readonly (readonly [RegExp, string])[] = [
  // Quoted values first: what is inside is the target's value, not the message's wording.
  [/"(?:[^"\\]|\\.){0,400}"/g, '"…"'],
  [/'(?:[^'\\\n]|\\.){0,400}'/g, "'…'"],
  [/`[^`\n]{0,400}`/g, "`…`"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, "<time>"],
  // Hex or mixed tokens of 12+ characters with a digit: tokens, hashes, generated labels.
  [/\b(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{12,}\b/g, "<id>"],
  // A duration as the checks write it ("5 min in the past"): its unit moves with its size.
  [/-?\d+(?:\.\d+)?\s?(?:ms|s|min|h)\b/g, "<duration>"],
  // A number, a decimal or a dotted release (4.176.0) is one placeholder.
  [/-?\d+(?:\.\d+)*(?:e[+-]?\d+)?/gi, "<n>"],
];

/**
 * A message's shape: numbers, quoted values, uuids, times, long ids and durations replaced by placeholders, so
 * "X-RateLimit-Reset 1732 is 5 min in the past" and "X-RateLimit-Reset 1745 is 2 h in the past" are one shape.
 * Words in `operationIds` (the description's operations) become `<operation>`: a suite assertion that names the
 * operation it judged ("getProfile 200: X-Spec-Version is 4.175.0") is one group over every operation, and the
 * group counts its operations instead. A concrete path of the API (`/compute/types/g6-nanode-1`) becomes its
 * template (`/compute/types/{typeId}`) where `templateOf` knows it: the same defect on another item is one shape.
 */
export function messageShape(
  message: string,
  operationIds: ReadonlySet<string> = new Set(),
  templateOf: (path: string) => string | undefined = () => undefined,
): string {
  let shape = message.length > 2000 ? message.slice(0, 2000) : message;
  // A path not inside a URL (a URL's path follows its host): `/regions/us-east`, `/nodebalancers/7/configs`.
  shape = shape.replace(/(?<![\w/.])(?:\/[^\s/?#"'`,;()]+)+\/?/g, (path) => templateOf(path) ?? path);
  if (operationIds.size > 0)
    shape = shape.replace(/\b[A-Za-z][A-Za-z0-9_]*\b/g, (word) =>
      operationIds.has(word) ? "<operation>" : word,
    );
  for (const [pattern, placeholder] of shapeRules) shape = shape.replace(pattern, placeholder);
  return shape.replace(/\s+/g, " ").trim();
}

/** A group's stable id: a short hash of its check and shape (the same in every run that meets the same failure). */
export function groupIdOf(checkId: string, shape: string): string {
  return createHash("sha256").update(`${checkId}\u0000${shape}`).digest("hex").slice(0, 10);
}

interface GroupState {
  readonly id: string;
  readonly checkId: string;
  readonly shape: string;
  readonly example: string;
  failures: number;
  exchangesKept: number;
  readonly cases: Set<string>;
  readonly firstCases: { readonly suiteId: string; readonly caseId: string }[];
  readonly operations: Map<string, number>;
}

/** Where a failure happened: its case and, when it judged an exchange, that exchange's operation. */
export interface FailureSite {
  readonly suiteId: string;
  readonly caseId: string;
  readonly operationId: string | undefined;
}

export interface Assignment {
  readonly groupId: string;
  /** Whether the failure's exchange is among the first kept in full for its group. */
  readonly keepExchange: boolean;
}

export class FailureGroups {
  readonly #groups = new Map<string, GroupState>();
  readonly #onOpen: (event: FailureGroupOpened) => void;
  readonly #operationIds: ReadonlySet<string>;
  readonly #templateOf: (path: string) => string | undefined;

  /**
   * `onOpen` hears of each group when its first failure comes (the engine emits it as an event); `operationIds`
   * are the description's operations, read as placeholders in messages ({@link messageShape}).
   */
  constructor(
    onOpen: (event: FailureGroupOpened) => void = () => {},
    operationIds: Iterable<string> = [],
    templateOf: (path: string) => string | undefined = () => undefined,
  ) {
    this.#templateOf = templateOf;
    this.#onOpen = onOpen;
    this.#operationIds = new Set(operationIds);
  }

  /**
   * The group a failure of `checkId` with `message` belongs to, and the message's shape. A check's failures group by
   * check and shape; a suite's own assertion is one expectation whatever sample its message names ("getProfile
   * without a token, answered 401: X-Spec-Version is …", "… with page_size 24, answered 400: …"), so its failures
   * group by the assertion alone: by its name's shape (a name built from a page number or an item's path, such as
   * `/regions/us-east is that item`, is one assertion over every item; an operation id in a name stays: another
   * operation's property is another finding). `checkId` is the group's: the name's shape for an assertion.
   */
  idOf(
    checkId: string,
    message: string,
  ): { readonly id: string; readonly shape: string; readonly checkId: string } {
    // A transport error names the request it happened to (`GET https://…/v4/regions?page=2: answer too large`):
    // the same error on every path is one group, so the request is not part of its shape.
    const said = checkId.startsWith(errorGroupPrefix) ? message.replace(/^[A-Z]+ \S+: /, "") : message;
    const shape = messageShape(said, this.#operationIds, this.#templateOf);
    if (!isAssertion(checkId)) return { id: groupIdOf(checkId, shape), shape, checkId };
    const name = messageShape(checkId, new Set(), this.#templateOf);
    return { id: groupIdOf(name, ""), shape, checkId: name };
  }

  /** Counts `count` failures of `checkId` with `message` at `site`; `hasExchange` asks for a place to keep it. */
  assign(checkId: string, message: string, site: FailureSite, hasExchange: boolean, count = 1): Assignment {
    const { id, shape, checkId: groupCheckId } = this.idOf(checkId, message);
    let group = this.#groups.get(id);
    if (!group) {
      group = {
        id,
        checkId: groupCheckId,
        shape,
        example: message,
        failures: 0,
        exchangesKept: 0,
        cases: new Set(),
        firstCases: [],
        operations: new Map(),
      };
      this.#groups.set(id, group);
      this.#onOpen({
        type: "failure-group",
        group: {
          id,
          checkId: groupCheckId,
          shape,
          example: message,
          suiteId: site.suiteId,
          caseId: site.caseId,
        },
      });
    }
    group.failures += count;
    const caseKey = `${site.suiteId}\u0000${site.caseId}`;
    if (!group.cases.has(caseKey)) {
      group.cases.add(caseKey);
      if (group.firstCases.length < namedCasesPerGroup)
        group.firstCases.push({ suiteId: site.suiteId, caseId: site.caseId });
    }
    const operation = site.operationId ?? "";
    group.operations.set(operation, (group.operations.get(operation) ?? 0) + count);
    const keepExchange = hasExchange && group.exchangesKept < keptExchangesPerGroup;
    if (keepExchange) group.exchangesKept += 1;
    return { groupId: id, keepExchange };
  }

  /** Adds failures to a group already assigned (repeats within one case, collapsed into one result). */
  repeat(groupId: string, operationId: string | undefined, count = 1): void {
    const group = this.#groups.get(groupId);
    if (!group) return;
    group.failures += count;
    const operation = operationId ?? "";
    group.operations.set(operation, (group.operations.get(operation) ?? 0) + count);
  }

  /** Every group, largest first (then by check id and shape, so the order is stable). */
  summary(): FailureGroup[] {
    return [...this.#groups.values()]
      .map((group) => {
        const operations = [...group.operations]
          .filter(([operationId]) => operationId !== "")
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
        return {
          id: group.id,
          checkId: group.checkId,
          shape: group.shape,
          example: group.example,
          failures: group.failures,
          cases: group.cases.size,
          firstCases: [...group.firstCases],
          operations: operations
            .slice(0, namedOperationsPerGroup)
            .map(([operationId, failures]) => ({ operationId, failures })),
          operationCount: operations.length,
          exchangesKept: group.exchangesKept,
        };
      })
      .sort(
        (a, b) =>
          b.failures - a.failures || a.checkId.localeCompare(b.checkId) || a.shape.localeCompare(b.shape),
      );
  }
}
