/**
 * What a mutator works on and gives back. A mutation site is one place of a generated body where a rule of the
 * schema can be broken: a declared property (sent or not), an array item, or the whole body. A mutator lists the
 * edits that break its one rule there and nothing else, so the compiled validator fails at that place only.
 * @module
 * @internal
 */
import { fieldPath } from "../../spec/issues.ts";
import { parsePointer } from "../../spec/pointer.ts";
import type { BodySchema } from "./body-schema.ts";

export interface MutationSite {
  /** JSON pointer of the place in the body (`""`: the whole body; `/nodes/0/label`). */
  readonly pointer: string;
  /** The schema of the value at that place. */
  readonly schema: BodySchema;
  /** Whether the body holds a value there. */
  readonly present: boolean;
  /** Required by the object holding it. */
  readonly required: boolean;
  /**
   * Sending it where it is absent would break another rule too (it takes part in `dependentRequired`), so only
   * its present value may be changed.
   */
  readonly entangled: boolean;
  /** Pointers of the sibling properties it is tied to by `dependentRequired` (breaking both at once cancels out). */
  readonly entangledWith?: readonly string[];
  /** The site of the array holding this item, when it is an array item (independent mutations avoid siblings). */
  readonly arrayParent?: string;
  /**
   * The place lies inside one branch of an `anyOf`/`oneOf` (the branch the valid value matched): breaking that
   * branch's rule may leave a value another branch accepts, so each edit there is judged against the whole schema.
   */
  readonly inBranch?: boolean;
  /** The values a discriminator (of the object holding this property) maps to branches, when this property is one. */
  readonly discriminatorValues?: readonly string[];
}

/** One way to break a rule at a site: put this value there, or take the property out. */
export type MutationEdit =
  | { readonly kind: "set"; readonly value: unknown; readonly detail: string }
  | { readonly kind: "remove"; readonly detail: string };

export interface Mutator {
  /** Kebab-case id, the file name (`remove-required-property`). */
  readonly operator: string;
  /** The edits that break exactly this mutator's rule at `site` (empty: it cannot be broken there). */
  edits(site: MutationSite, current: unknown): readonly MutationEdit[];
}

/** The body with one edit made at `pointer` (a deep copy; the input is not changed). */
export function applyEdit(body: unknown, pointer: string, edit: MutationEdit): unknown {
  if (pointer === "") return edit.kind === "set" ? structuredClone(edit.value) : undefined;
  const copy = structuredClone(body);
  const tokens = parsePointer(pointer) ?? [];
  let holder: unknown = copy;
  for (const token of tokens.slice(0, -1)) holder = (holder as Record<string, unknown>)[token];
  const last = tokens.at(-1)!;
  if (Array.isArray(holder)) {
    if (edit.kind === "set") holder[Number(last)] = structuredClone(edit.value);
    else holder.splice(Number(last), 1);
  } else if (typeof holder === "object" && holder !== null) {
    const record = holder as Record<string, unknown>;
    if (edit.kind === "set") record[last] = structuredClone(edit.value);
    else delete record[last];
  }
  return copy;
}

/** The field a pointer names, in the API's error style (`configs[0].port`); undefined for the whole body. */
export function fieldOf(body: unknown, pointer: string): string | undefined {
  const tokens = parsePointer(pointer) ?? [];
  return tokens.length === 0 ? undefined : fieldPath(body, tokens);
}

/** True when one pointer is the other or lies under it (`/a` and `/a/b`). */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`) || a === "" || b === "";
}
