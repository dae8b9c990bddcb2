/**
 * Typed readers of a target's JSON answers: a suite says the shape it needs (`shape.object({ pages:
 * shape.integer })`) and gets the body typed, or a failed assertion naming what was wrong (`the body is not JSON
 * (...)`, `pages is missing`, `data[3].id is a number, not a string`): a target's bad answer reads as the target's
 * failure, never as a TypeError of the suite. A reader walks the shape, not the value, so its time and stack are
 * bounded by the shape whatever the answer nests (the client keeps an answer nesting deeper than
 * `maxRecordedDepth` as text: `unreadable`).
 * @module
 */
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext } from "../runner/suite-api.ts";

/** A shape a value must have: `problem` says what is wrong with a value at a path (undefined when it fits). */
export interface Shape<T> {
  /** What it is, for messages: `an integer`, `an array`. */
  readonly describe: string;
  problem(value: unknown, at: string): string | undefined;
  /** Phantom: the type a value of this shape has. */
  readonly type?: T;
}

export type ShapeOf<S> = S extends Shape<infer T> ? T : never;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number" && !Number.isInteger(value)) return "a fraction";
  return `a ${typeof value}`;
}

function primitive<T>(describe: string, fits: (value: unknown) => boolean): Shape<T> {
  return {
    describe,
    problem: (value, at) =>
      value === undefined
        ? `${at} is missing`
        : fits(value)
          ? undefined
          : `${at} is ${kindOf(value)}, not ${describe}`,
  };
}

function notAnObject(value: unknown, at: string): string | undefined {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return undefined;
  return value === undefined ? `${at} is missing` : `${at} is ${kindOf(value)}, not an object`;
}

/** Where a property of `at` is: `pages` at the top, `data[3].id` below. */
function member(at: string, key: string | number): string {
  if (typeof key === "number") return `${at}[${key}]`;
  return at === "body" ? key : `${at}.${key}`;
}

export const shape = {
  string: primitive<string>("a string", (value) => typeof value === "string"),
  integer: primitive<number>("an integer", (value) => Number.isInteger(value)),
  number: primitive<number>("a number", (value) => typeof value === "number"),
  boolean: primitive<boolean>("a boolean", (value) => typeof value === "boolean"),
  /** Anything present (not undefined): a value the suite only compares or quotes. */
  present: primitive<unknown>("a value", () => true),
  /** Any JSON object (an array or null is not one): a value the suite reads property by property. */
  record: { describe: "an object", problem: notAnObject } as Shape<Readonly<Record<string, unknown>>>,
  /** An array whose every item has `item`'s shape (the first misfit is named). */
  array<T>(item: Shape<T>): Shape<T[]> {
    return {
      describe: "an array",
      problem(value, at) {
        if (!Array.isArray(value))
          return value === undefined ? `${at} is missing` : `${at} is ${kindOf(value)}, not an array`;
        for (let index = 0; index < value.length; index += 1) {
          const wrong = item.problem(value[index], member(at, index));
          if (wrong) return wrong;
        }
        return undefined;
      },
    };
  },
  /** An object with at least these properties (others are allowed). */
  object<P extends Readonly<Record<string, Shape<unknown>>>>(
    properties: P,
  ): Shape<{ [K in keyof P]: ShapeOf<P[K]> }> {
    return {
      describe: "an object",
      problem(value, at) {
        const wrong = notAnObject(value, at);
        if (wrong) return wrong;
        for (const [key, property] of Object.entries(properties)) {
          const wrong = property.problem((value as Record<string, unknown>)[key], member(at, key));
          if (wrong) return wrong;
        }
        return undefined;
      },
    };
  },
  /** `inner`, or absent. */
  optional<T>(inner: Shape<T>): Shape<T | undefined> {
    return {
      describe: `${inner.describe} or nothing`,
      problem: (value, at) => (value === undefined ? undefined : inner.problem(value, at)),
    };
  },
};

/** A body read: its value with the shape's type, or what was wrong with the answer. */
export type BodyRead<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: string };

/** The answer's JSON body as `wanted`, or what was wrong: not JSON, unreadable, or not of that shape. */
export function readBody<T>(response: LiveResponse, wanted: Shape<T>): BodyRead<T> {
  const problem = bodyProblem(response) ?? wanted.problem(response.json, "body");
  return problem === undefined ? { ok: true, value: response.json as T } : { ok: false, problem };
}

function bodyProblem(response: LiveResponse): string | undefined {
  if (response.json !== undefined) return undefined;
  if (response.unreadable !== undefined) return `the body ${response.unreadable}`;
  if (response.exchange?.response?.truncated) return "the body was cut short";
  if (response.text === "") return "the answer has no body";
  const type = response.headers["content-type"];
  return `the body is labelled ${type === undefined ? "with no content type" : type}, not JSON`;
}

/**
 * The answer's JSON body as `wanted`, or undefined after a failed assertion `name` saying what was wrong with it
 * (`<name>: pages is missing`). Nothing is asserted when it fits: the suite asserts what it judges in it.
 */
export function expectBody<T>(
  t: CaseContext,
  name: string,
  response: LiveResponse,
  wanted: Shape<T>,
): T | undefined {
  const read = readBody(response, wanted);
  if (read.ok) return read.value;
  t.expect(name, false, {
    expected: `a JSON body: ${wanted.describe}`,
    actual: read.problem,
    message: `${name}: ${read.problem}`,
    response,
  });
  return undefined;
}
