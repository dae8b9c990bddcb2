/**
 * Builds the fast-check arbitrary of values a {@link BodySchema} accepts, valid by construction: types, `enum`,
 * `const`, numeric bounds (exclusive ones too) and `multipleOf`, string lengths, `pattern` (fast-check's
 * `stringMatching`) and the formats the description uses, array sizes and `uniqueItems`, required and
 * `dependentRequired` properties, `not` and `anyOf`/`oneOf` (by filtering). Objects never get properties the
 * schema does not declare, and `readOnly` ones are left out (a request does not send them).
 *
 * Values shrink the fast-check way: optional properties drop out, arrays get shorter, numbers move to their lower
 * bound, strings get shorter.
 * @module
 * @internal
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import type { BodySchema, JsonType } from "../body-schema.ts";
import { boundedFilter } from "../bounded-filter.ts";
import { codePoints, conforms, numberConforms, patternOf, stringConforms } from "../conforms.ts";

export interface SchemaValueOptions {
  /**
   * Arbitraries to use instead of the schema's at these places, keyed by schema path: JSON pointer tokens of
   * property names, `*` for any array item (`/label`, `/nodes/* /address` without the space).
   */
  readonly overrides: ReadonlyMap<string, fc.Arbitrary<unknown>>;
  /** Optional properties that are always sent (schema paths). */
  readonly include: ReadonlySet<string>;
  /** Optional properties that are never sent (schema paths). */
  readonly exclude: ReadonlySet<string>;
  /** Whether `null` may be generated where the schema allows it. */
  readonly nulls: boolean;
  /** Largest number of array items beyond `minItems`. */
  readonly extraItems: number;
  /** Longest string beyond `minLength` when the schema sets no `maxLength`. */
  readonly extraLength: number;
}

/** Child schema path of a property (`~` and `/` escaped as in JSON pointers). */
export function propertyPath(path: string, name: string): string {
  return `${path}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

export function itemPath(path: string): string {
  return `${path}/*`;
}

/** The arbitrary of values `schema` accepts at schema path `path`. */
export function schemaValue(
  schema: BodySchema,
  path: string,
  options: SchemaValueOptions,
): fc.Arbitrary<unknown> {
  const override = options.overrides.get(path);
  if (override) return override;
  let arbitrary = baseArbitrary(schema, path, options);
  if (schema.not) {
    const not = schema.not;
    arbitrary = boundedFilter(arbitrary, (value) => !conforms(not, value), schema.pointer);
  }
  return arbitrary;
}

function baseArbitrary(schema: BodySchema, path: string, options: SchemaValueOptions): fc.Arbitrary<unknown> {
  if (schema.hasConst) return fc.constant(schema.const);
  if (schema.enum) {
    const values = schema.enum.filter(
      (value) => (options.nulls || value !== null) && conformsBesidesEnum(schema, value),
    );
    if (values.length === 0) return fc.constant(schema.enum[0]);
    return fc.constantFrom(...values);
  }
  if (schema.anyOf && schema.anyOf.length > 0) {
    const whole = schema;
    const branches = schema.anyOf.map((branch, index) =>
      schemaValue(withoutAlternatives(whole, branch), `${path}/anyOf/${index}`, options),
    );
    return boundedFilter(fc.oneof(...branches), (value) => conforms(whole, value), whole.pointer);
  }
  const types = (schema.types ?? untypedTypes(schema)).filter((type) => type !== "null");
  const canBeNull = schema.types?.includes("null") === true;
  const arbitraries = dedupeNumeric(types).map((type) => typed(type, schema, path, options));
  if (arbitraries.length === 0) return fc.constant(null);
  const value = arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
  if (canBeNull && options.nulls)
    return fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) });
  return value;
}

/**
 * What to draw where the schema names no type: an object where it declares properties or required ones (what its
 * author meant, and a value any validator accepts), else a scalar.
 */
function untypedTypes(schema: BodySchema): JsonType[] {
  const describesObject = schema.properties !== undefined || (schema.required?.length ?? 0) > 0;
  return describesObject ? ["object"] : ["string", "integer", "boolean"];
}

function conformsBesidesEnum(schema: BodySchema, value: unknown): boolean {
  const { enum: _enum, ...rest } = schema;
  return conforms(rest, value);
}

/** One branch of an `anyOf`, with the keywords of the schema around it. */
function withoutAlternatives(schema: BodySchema, branch: BodySchema): BodySchema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
  return { ...rest, ...branch, pointer: branch.pointer };
}

/** `integer` and `number` together generate numbers of both kinds once. */
function dedupeNumeric(types: readonly JsonType[]): JsonType[] {
  return types.includes("number") ? types.filter((type) => type !== "integer") : [...types];
}

function typed(
  type: JsonType,
  schema: BodySchema,
  path: string,
  options: SchemaValueOptions,
): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return stringValue(schema, options);
    case "integer":
      return integerValue(schema);
    case "number":
      return numberValue(schema);
    case "boolean":
      return fc.boolean();
    case "array":
      return arrayValue(schema, path, options);
    case "object":
      return objectValue(schema, path, options);
    default:
      return fc.constant(null);
  }
}

const ajvUrl = fullFormats.url as RegExp;

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** Formats the description's request bodies use, each as values ajv-formats accepts. */
function formatValue(format: string | undefined): fc.Arbitrary<string> | undefined {
  switch (format) {
    case "date-time":
      return fc
        .date({
          min: new Date("2001-01-01T00:00:00Z"),
          max: new Date("2098-12-31T23:59:59Z"),
          noInvalidDate: true,
        })
        .map(isoSeconds);
    case "date":
      return fc
        .date({
          min: new Date("2001-01-01T00:00:00Z"),
          max: new Date("2098-12-31T00:00:00Z"),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString().slice(0, 10));
    case "uri":
      return fc.webUrl({ withQueryParameters: true });
    case "url":
      // ajv-formats' `url` is stricter than `uri` (no empty query, no `--` in a host label): 1 draw in 250 is not.
      return fc.webUrl().filter((url) => ajvUrl.test(url));
    case "email":
      return fc.emailAddress();
    case "ipv4":
      return fc.ipV4();
    case "ipv6":
      return fc.ipV6();
    case "uuid":
      return fc.uuid();
    case "hostname":
      return fc.domain();
    default:
      return undefined;
  }
}

function stringValue(schema: BodySchema, options: SchemaValueOptions): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min(schema.maxLength ?? Number.POSITIVE_INFINITY, minLength + options.extraLength),
  );
  const format = formatValue(schema.format);
  let arbitrary: fc.Arbitrary<string>;
  if (format) arbitrary = format;
  else if (schema.pattern !== undefined) {
    arbitrary = fc.stringMatching(patternOf(schema.pattern), {
      maxLength: schema.maxLength ?? maxLength + 16,
    });
  } else arbitrary = fc.string({ minLength, maxLength });
  return boundedFilter(
    arbitrary,
    (value) => stringConforms(schema, value) && codePoints(value) >= minLength,
    schema.pointer,
  );
}

/** Integers when no bound says otherwise stay small and readable. */
const span = 1000;

function integerValue(schema: BodySchema): fc.Arbitrary<number> {
  let min = schema.minimum ?? Number.NEGATIVE_INFINITY;
  let max = schema.maximum ?? Number.POSITIVE_INFINITY;
  if (schema.exclusiveMinimum !== undefined) min = Math.max(min, Math.floor(schema.exclusiveMinimum) + 1);
  if (schema.exclusiveMaximum !== undefined) max = Math.min(max, Math.ceil(schema.exclusiveMaximum) - 1);
  min = Math.ceil(min);
  max = Math.floor(max);
  if (!Number.isFinite(min) && !Number.isFinite(max)) [min, max] = [0, span];
  else if (!Number.isFinite(min)) min = max - span;
  else if (!Number.isFinite(max)) max = min + span;
  // Bounds beyond the safe integers (an int64's 2^63 - 1) are no integers a double holds: fast-check's draw between
  // them never ends.
  min = Math.max(min, Number.MIN_SAFE_INTEGER);
  max = Math.min(max, Number.MAX_SAFE_INTEGER);
  if (schema.multipleOf !== undefined && Number.isInteger(schema.multipleOf) && schema.multipleOf > 0) {
    const step = schema.multipleOf;
    const low = Math.ceil(min / step);
    const high = Math.floor(max / step);
    return fc.integer({ min: low, max: Math.max(low, high) }).map((k) => k * step);
  }
  return fc.integer({ min, max: Math.max(min, max) });
}

function numberValue(schema: BodySchema): fc.Arbitrary<number> {
  if (schema.multipleOf !== undefined) return integerValue(schema);
  let min = schema.minimum ?? schema.exclusiveMinimum;
  let max = schema.maximum ?? schema.exclusiveMaximum;
  if (min === undefined && max === undefined) [min, max] = [0, span];
  else if (min === undefined) min = max! - span;
  else if (max === undefined) max = min + span;
  const drawn = fc
    .double({
      min,
      max,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: schema.exclusiveMinimum !== undefined && schema.minimum === undefined,
      maxExcluded: schema.exclusiveMaximum !== undefined && schema.maximum === undefined,
    })
    .map((value) => (Object.is(value, -0) ? 0 : value));
  return boundedFilter(drawn, (value) => numberConforms(schema, value), schema.pointer);
}

function arrayValue(schema: BodySchema, path: string, options: SchemaValueOptions): fc.Arbitrary<unknown[]> {
  const item = schema.items
    ? schemaValue(schema.items, itemPath(path), options)
    : fc.string({ maxLength: 8 });
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min(schema.maxItems ?? Number.POSITIVE_INFINITY, minLength + options.extraItems),
  );
  if (schema.uniqueItems)
    return fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) });
  return fc.array(item, { minLength, maxLength });
}

function objectValue(
  schema: BodySchema,
  path: string,
  options: SchemaValueOptions,
): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(schema.required ?? []);
  // A required property the schema names but never describes takes any value (its absence breaks `required`),
  // unless no undeclared property is allowed.
  const properties = { ...schema.properties };
  if (schema.additionalProperties !== false)
    for (const name of required) properties[name] ??= { pointer: propertyPath(schema.pointer, name) };
  const names = Object.keys(properties).filter((name) => {
    const property = properties[name]!;
    const at = propertyPath(path, name);
    return !property.readOnly && (required.has(name) || !options.exclude.has(at));
  });
  const values: Record<string, fc.Arbitrary<unknown>> = {};
  const presence: Record<string, fc.Arbitrary<boolean>> = {};
  for (const name of names) {
    const at = propertyPath(path, name);
    values[name] = schemaValue(properties[name]!, at, options);
    if (!required.has(name)) presence[name] = options.include.has(at) ? fc.constant(true) : fc.boolean();
  }
  const dependent = schema.dependentRequired ?? {};
  return fc
    .record({ values: fc.record(values), presence: fc.record(presence) })
    .map(({ values: all, presence: chosen }) => {
      const sent = new Set(names.filter((name) => required.has(name) || chosen[name] === true));
      // A property sent brings the ones it depends on (dependentRequired), when the schema declares them.
      for (let grew = true; grew; ) {
        grew = false;
        for (const name of [...sent]) {
          for (const other of dependent[name] ?? []) {
            if (!sent.has(other) && Object.hasOwn(all, other)) {
              sent.add(other);
              grew = true;
            }
          }
        }
      }
      // An object that must have some properties (`minProperties`) gets optional ones in order until it has.
      for (const name of names) {
        if (sent.size >= (schema.minProperties ?? 0)) break;
        if (!(dependent[name] ?? []).some((other) => !Object.hasOwn(all, other))) sent.add(name);
      }
      // ... and one whose dependencies cannot be sent (left out by the caller) is not sent either.
      for (let shrank = true; shrank; ) {
        shrank = false;
        for (const name of [...sent]) {
          if ((dependent[name] ?? []).some((other) => !sent.has(other)) && !required.has(name)) {
            sent.delete(name);
            shrank = true;
          }
        }
      }
      const body: Record<string, unknown> = {};
      for (const name of names) if (sent.has(name)) body[name] = all[name];
      return body;
    });
}
