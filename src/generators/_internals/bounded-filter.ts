/**
 * A filter that gives up: fast-check's own `filter` draws until a value passes, so a schema no drawn value can
 * satisfy (a `oneOf` whose branches all accept the same objects, a pattern its lengths exclude) would hang the
 * process for good. This one draws a bounded number of times, then throws {@link UnsatisfiableSchema} naming the
 * schema, for the caller to say why no value was made.
 * @module
 * @internal
 */
import fc from "fast-check";

/** Draws per value before a schema is taken for unsatisfiable by drawing. */
const drawsPerValue = 200;

/** No value drawn for a schema satisfied it within the bound. */
export class UnsatisfiableSchema extends Error {
  readonly pointer: string;

  constructor(pointer: string) {
    super(`no value drawn for the schema at ${pointer} satisfies it (${drawsPerValue} draws): none is sent`);
    this.name = "UnsatisfiableSchema";
    this.pointer = pointer;
  }
}

class BoundedFilter<T> extends fc.Arbitrary<T> {
  readonly source: fc.Arbitrary<T>;
  readonly keep: (value: T) => boolean;
  readonly pointer: string;

  constructor(source: fc.Arbitrary<T>, keep: (value: T) => boolean, pointer: string) {
    super();
    this.source = source;
    this.keep = keep;
    this.pointer = pointer;
  }

  generate(random: fc.Random, bias: number | undefined): fc.Value<T> {
    for (let draw = 0; draw < drawsPerValue; draw += 1) {
      const value = this.source.generate(random, bias);
      if (this.keep(value.value)) return value;
    }
    throw new UnsatisfiableSchema(this.pointer);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.source.canShrinkWithoutContext(value) && this.keep(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.source.shrink(value, context).filter((shrunk) => this.keep(shrunk.value));
  }
}

/** `arbitrary.filter(keep)`, bounded: throws {@link UnsatisfiableSchema} for `pointer` when no draw passes. */
export function boundedFilter<T>(
  arbitrary: fc.Arbitrary<T>,
  keep: (value: T) => boolean,
  pointer: string,
): fc.Arbitrary<T> {
  return new BoundedFilter(arbitrary, keep, pointer);
}
