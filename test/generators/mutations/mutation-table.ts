/**
 * Table runner for the mutators: each row is a JSON Schema of one place, what the body holds there, and the edits
 * the mutator must offer. Every value an edit puts there is also judged by ajv (an independent validator): it must
 * break the schema, since that is the mutator's whole point.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect, it } from "vitest";
import { resolveBodySchema } from "../../../src/generators/_internals/body-schema.ts";
import type { MutationSite, Mutator } from "../../../src/generators/mutations/index.ts";

export interface MutationRow {
  readonly name: string;
  /** JSON Schema (2020-12) of the place. */
  readonly schema: Record<string, unknown>;
  /** What the body holds there; absent when `present` is false. */
  readonly current?: unknown;
  readonly present?: boolean;
  readonly required?: boolean;
  readonly entangled?: boolean;
  /** The values a discriminator maps, when the place is its property. */
  readonly discriminatorValues?: readonly string[];
  /** The edits expected: the values set, or `"remove"`. */
  readonly edits: readonly unknown[];
}

const ajv = new Ajv2020({ strict: false, allErrors: true });

export function mutationTable(mutator: Mutator, rows: readonly MutationRow[]): void {
  it.each(rows)(`${mutator.operator}: $name`, (row) => {
    const site: MutationSite = {
      pointer: "/field",
      schema: resolveBodySchema({}, "openapi-3.1", "/field", row.schema),
      present: row.present ?? true,
      required: row.required ?? false,
      entangled: row.entangled ?? false,
      ...(row.discriminatorValues ? { discriminatorValues: row.discriminatorValues } : {}),
    };
    const edits = mutator.edits(site, row.current);
    expect(edits.map((edit) => (edit.kind === "remove" ? "remove" : edit.value))).toEqual(row.edits);
    const validate = ajv.compile(row.schema);
    for (const edit of edits) {
      expect(edit.detail.length).toBeGreaterThan(0);
      if (edit.kind === "set")
        expect(validate(edit.value), `${JSON.stringify(edit.value)} breaks the schema`).toBe(false);
    }
  });
}
