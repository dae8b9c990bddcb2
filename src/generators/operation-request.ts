/**
 * `operationRequest`: whole requests (path, query, header and cookie parameters, JSON body) that an operation's
 * description allows, valid by construction, each with its provenance (`positive`). Path values the caller found
 * in the target's answers are used as given; any other value is drawn from its schema. A `minimal` request sends
 * only what is required (no optional query parameter or body property): what a target must take without relying
 * on dependencies between fields the description does not state.
 *
 * ```ts
 * const requests = operationRequest(spec, operation, { pathValues: { configId: 7 }, minimal: true });
 * ```
 * @module
 * @public
 */
import fc from "fast-check";
import { pointerOf } from "../spec/pointer.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import type { BodySchema } from "./_internals/body-schema.ts";
import { UnsatisfiableSchema } from "./_internals/bounded-filter.ts";
import { type SchemaValueOptions, schemaValue } from "./_internals/builders/schema-value.ts";
import { conforms } from "./_internals/conforms.ts";
import { fieldOf } from "./_internals/mutation.ts";
import { parameterText, requestSchemaOfOperation, textConforms } from "./_internals/request-schema.ts";
import { type Generated, positive } from "./case-meta.ts";

export { UnsatisfiableSchema };

/** One request to an operation, ready to send: values by parameter name, the body as JSON. */
export interface OperationRequest {
  readonly path: Readonly<Record<string, string | number>>;
  readonly query: Readonly<Record<string, string | number | boolean>>;
  /** Header parameters by name, as their text. */
  readonly headers: Readonly<Record<string, string>>;
  /** Cookie parameters by name, as their text (sent in one `Cookie` header). */
  readonly cookies: Readonly<Record<string, string>>;
  /** The JSON body; absent when none is sent. */
  readonly body?: unknown;
  /**
   * Fields (the API's error style: `label`, `nodes[0].address`; a parameter by its name) whose values the
   * description does not pin down: text drawn from its schema (no enum or constant: a pattern or format shapes it
   * but cannot say that what it names exists or suits), or naming another resource (`compute_id`).
   */
  readonly unpinned: readonly string[];
}

export interface OperationRequestConstraints {
  /** Path values found in the target's answers (or chosen by the caller), by parameter name. */
  readonly pathValues?: Readonly<Record<string, string | number>>;
  /** Arbitraries for body values, keyed by schema path (`/region`, `/nodes/*\/address`), as `requestBody`'s. */
  readonly bodyOverrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /**
   * Makes the body's `label` (a top-level string property of that name) when the value it makes fits the label's
   * schema: what the run creates then carries the run's label, for cleanup by prefix.
   */
  readonly label?: () => string;
  /**
   * Values found on the target for top-level body properties, by name (`region`: the ids of the region list): one
   * of those that fit the property's schema is sent instead of a drawn one.
   */
  readonly found?: Readonly<Record<string, readonly unknown[]>>;
  /** Only what is required: no optional query parameter, no optional body property, no optional body. */
  readonly minimal?: boolean;
  /** The scenario named in the provenance; default `request-valid` (`request-minimal` when minimal). */
  readonly scenario?: string;
}

/** Why `operation` cannot be given a valid request from its description alone, or undefined when it can. */
export function unbuildableRequest(spec: ApiSpec, operation: OperationInfo): string | undefined {
  return requestSchemaOfOperation(spec, operation).unbuildable;
}

/** Whether `value` fits path parameter `name` of `operation` as the description types it (as URL text). */
export function pathValueFits(
  spec: ApiSpec,
  operation: OperationInfo,
  name: string,
  value: string | number,
): boolean {
  const schema = requestSchemaOfOperation(spec, operation).schema.properties?.path?.properties?.[name];
  return schema !== undefined && textConforms(schema, parameterText(value));
}

/** Requests the description of `operation` allows, each with `positive` provenance. */
export function operationRequest(
  spec: ApiSpec,
  operation: OperationInfo,
  constraints: OperationRequestConstraints = {},
): fc.Arbitrary<Generated<OperationRequest>> {
  const scenario = constraints.scenario ?? (constraints.minimal ? "request-minimal" : "request-valid");
  return operationRequestValue(spec, operation, constraints).map(({ value, fixed }) => ({
    value: toRequest(value, requestSchemaOfOperation(spec, operation).schema, fixed),
    meta: positive(scenario),
  }));
}

/**
 * The raw `{path, query, body}` values of {@link operationRequest}, for the invalid generator built on top of it,
 * with the schema paths whose values were given rather than drawn.
 * @internal
 */
export function operationRequestValue(
  spec: ApiSpec,
  operation: OperationInfo,
  constraints: OperationRequestConstraints,
): fc.Arbitrary<{ value: Record<string, unknown>; fixed: ReadonlySet<string> }> {
  const { schema } = requestSchemaOfOperation(spec, operation);
  const overrides = new Map<string, fc.Arbitrary<unknown>>();
  for (const [name, value] of Object.entries(constraints.pathValues ?? {}))
    if (schema.properties?.path?.properties?.[name])
      overrides.set(`/path/${escapeName(name)}`, fc.constant(value));
  for (const [path, arbitrary] of Object.entries(constraints.bodyOverrides ?? {}))
    overrides.set(`/body${path}`, arbitrary);
  for (const [name, values] of Object.entries(constraints.found ?? {})) {
    const property = schema.properties?.body?.properties?.[name];
    const fitting = property ? values.filter((value) => conforms(property, value)) : [];
    if (fitting.length > 0) overrides.set(`/body/${escapeName(name)}`, fc.constantFrom(...fitting));
  }
  const labelSchema = schema.properties?.body?.properties?.label;
  const makeLabel = constraints.label;
  if (makeLabel && labelSchema?.types?.includes("string") && !overrides.has("/body/label")) {
    const drawn = schemaValue(labelSchema, "/body/label", valueOptions(new Map(), constraints, schema));
    overrides.set(
      "/body/label",
      drawn.map((fallback) => {
        const made = makeLabel();
        return conforms(labelSchema, made) ? made : fallback;
      }),
    );
  }
  const value = schemaValue(schema, "", valueOptions(overrides, constraints, schema)) as fc.Arbitrary<
    Record<string, unknown>
  >;
  // A value found on the target exists, but may still not suit this request (a region without the capability):
  // it stays among the values the description does not pin down.
  const fixed = new Set(
    [...overrides.keys()].filter((path) => !Object.hasOwn(constraints.found ?? {}, path.slice(6))),
  );
  return value.map((generated) => ({ value: generated, fixed }));
}

function valueOptions(
  overrides: ReadonlyMap<string, fc.Arbitrary<unknown>>,
  constraints: OperationRequestConstraints,
  schema: BodySchema,
): SchemaValueOptions {
  return {
    overrides,
    // A fuller request sends the body the operation takes, required or not (OpenAPI's default is optional: most
    // writes of a real description say nothing), so its rules are there to break too.
    include: new Set(constraints.minimal ? [] : ["/body"]),
    exclude: new Set(constraints.minimal ? optionalPaths(schema) : []),
    nulls: !constraints.minimal,
    extraItems: constraints.minimal ? 0 : 2,
    extraLength: 16,
  };
}

const escapeName = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * Schema paths of every optional property, under required ones (what a minimal value leaves out), but for the
 * first optional ones of an object that must have some (`minProperties`).
 */
function optionalPaths(schema: BodySchema, path = "", depth = 0): string[] {
  if (depth > 12 || !schema.properties) return [];
  const required = new Set(schema.required ?? []);
  let kept = Math.max(0, (schema.minProperties ?? 0) - required.size);
  return Object.entries(schema.properties).flatMap(([name, property]) => {
    const at = `${path}/${escapeName(name)}`;
    if (required.has(name)) return optionalPaths(property, at, depth + 1);
    if (kept > 0 && !property.readOnly) {
      kept -= 1;
      return optionalPaths(property, at, depth + 1);
    }
    return [at];
  });
}

/** `{path, query, header, cookie, body}` as a request: parameters as text, free-text fields named. */
export function toRequest(
  value: Record<string, unknown>,
  schema: BodySchema,
  fixed: ReadonlySet<string>,
): OperationRequest {
  const text = (part: unknown) =>
    Object.fromEntries(
      Object.entries((part ?? {}) as Record<string, unknown>).map(([name, item]) => [
        name,
        typeof item === "number" || typeof item === "boolean" ? item : parameterText(item),
      ]),
    );
  const asText = (part: unknown) =>
    Object.fromEntries(Object.entries(text(part)).map(([name, item]) => [name, String(item)]));
  return {
    path: text(value.path) as Record<string, string | number>,
    query: text(value.query) as Record<string, string | number | boolean>,
    headers: asText(value.header),
    cookies: asText(value.cookie),
    ...(Object.hasOwn(value, "body") ? { body: value.body } : {}),
    unpinned: unpinnedFields(schema, value, fixed),
  };
}

/** A field naming another resource (`id`, `compute_id`, `configId`): which values exist is the target's. */
const isReference = (name: string | undefined) => name !== undefined && /(?:^id|_id|[a-z]Id|ID)$/.test(name);

/**
 * Text drawn from its schema (no enum or constant): a pattern or format gives its shape, not that what it names
 * exists or suits (a private address of an instance, a known time zone).
 */
function isDrawnText(schema: BodySchema): boolean {
  return schema.types?.includes("string") === true && !schema.enum && !schema.hasConst;
}

/** The fields of `value` holding text drawn from a schema that allows any (given values excepted). */
function unpinnedFields(schema: BodySchema, value: unknown, fixed: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const visit = (node: BodySchema, item: unknown, tokens: string[], schemaPath: string, depth: number) => {
    if (depth > 16 || fixed.has(schemaPath)) return;
    if (node.anyOf && node.anyOf.length > 0) {
      // The branch the value was drawn from (the first it fits) holds its fields' schemas.
      const { anyOf, oneOf: _oneOf, ...around } = node;
      const branches = anyOf.map((branch) => ({ ...around, ...branch }));
      const branch = branches.find((candidate) => conforms(candidate, item)) ?? branches[0]!;
      visit(branch, item, tokens, schemaPath, depth + 1);
      return;
    }
    const reference = isReference(tokens.at(-1)) && (typeof item === "string" || typeof item === "number");
    if (((typeof item === "string" && isDrawnText(node)) || reference) && tokens.length > 1) {
      const [part, ...rest] = tokens;
      // Body fields as the API's errors name them (`nodes[0].label`); parameters by their names.
      const body = (value as { body?: unknown }).body;
      found.push(part === "body" ? (fieldOf(body, pointerOf(rest)) ?? "") : rest.join("."));
      return;
    }
    if (Array.isArray(item) && node.items) {
      for (const [index, entry] of item.entries())
        visit(node.items, entry, [...tokens, String(index)], `${schemaPath}/*`, depth + 1);
    } else if (typeof item === "object" && item !== null && node.properties) {
      for (const [name, entry] of Object.entries(item)) {
        const property = node.properties[name];
        if (property)
          visit(property, entry, [...tokens, name], `${schemaPath}/${escapeName(name)}`, depth + 1);
      }
    }
  };
  visit(schema, value, [], "", 0);
  return found.filter((field) => field !== "");
}
