/**
 * Finds which path template a concrete request path falls under.
 *
 * Rules: a trailing slash is tolerated on either side; the query string is ignored; parameters are
 * percent-decoded (a `%2F` stays inside its segment); at the first segment where two templates differ, a
 * literal segment beats a partly templated one (`{id}.json`), which beats a bare parameter; a parameter value
 * that its route's `convert` refuses (an integer parameter given `abc`) does not match. The path is chosen
 * before the method: `PUT /ips/assign` is not `PUT /ips/{address}` when `/ips/assign` is a path of its own
 * (with only POST), it is a method that path lacks (no match).
 * @module
 * @internal
 */

export interface Route<T> {
  readonly method: string;
  readonly template: string;
  readonly value: T;
  /** Types a decoded parameter value; `undefined` rejects it (the route does not match). */
  readonly convert?: (name: string, value: string) => string | number | undefined;
}

export interface PathMatch<T> {
  readonly value: T;
  readonly params: Readonly<Record<string, string | number>>;
}

export interface PathMatcher<T> {
  match(method: string, path: string): PathMatch<T> | undefined;
}

type Segment =
  | { readonly kind: "literal"; readonly text: string }
  | {
      readonly kind: "template";
      readonly pattern: RegExp;
      readonly names: readonly string[];
      readonly bare: boolean;
    };

interface CompiledRoute<T> {
  readonly route: Route<T>;
  /** Lower case. */
  readonly method: string;
  readonly segments: readonly Segment[];
  /** Per segment: 2 literal, 1 partly templated, 0 a bare parameter. */
  readonly rank: readonly number[];
}

export function createPathMatcher<T>(routes: Iterable<Route<T>>): PathMatcher<T> {
  // segment count → routes of every method: the path is chosen first, then the method
  const table = new Map<number, CompiledRoute<T>[]>();
  for (const route of routes) {
    const segments = splitPath(route.template).map(compileSegment);
    const bucket = table.get(segments.length) ?? [];
    table.set(segments.length, bucket);
    bucket.push({
      route,
      method: route.method.toLowerCase(),
      segments,
      rank: segments.map((segment) => (segment.kind === "literal" ? 2 : segment.bare ? 0 : 1)),
    });
  }

  return {
    match(method, path) {
      const segments = splitPath(path.replace(/[?#].*$/s, "")).map(decode);
      const wanted = method.toLowerCase();
      let bestRank: readonly number[] | undefined;
      let best: { compiled: CompiledRoute<T>; params: Record<string, string | number> } | undefined;
      for (const compiled of table.get(segments.length) ?? []) {
        const order = bestRank === undefined ? 1 : compareRank(compiled.rank, bestRank);
        // A less specific path, or an equally specific one when the method is already found, cannot win.
        if (order < 0 || (order === 0 && (compiled.method !== wanted || best !== undefined))) continue;
        const params = matchSegments(compiled, segments);
        if (!params) continue;
        bestRank = compiled.rank;
        best = compiled.method === wanted ? { compiled, params } : undefined;
      }
      return best && { value: best.compiled.route.value, params: best.params };
    },
  };
}

function matchSegments<T>(
  compiled: CompiledRoute<T>,
  segments: readonly string[],
): Record<string, string | number> | undefined {
  const params: Record<string, string | number> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = compiled.segments[i] as Segment;
    const actual = segments[i] as string;
    if (segment.kind === "literal") {
      if (segment.text !== actual) return undefined;
      continue;
    }
    const found = segment.pattern.exec(actual);
    if (!found) return undefined;
    for (let n = 0; n < segment.names.length; n++) {
      const name = segment.names[n] as string;
      const text = found[n + 1] ?? "";
      const typed = compiled.route.convert ? compiled.route.convert(name, text) : text;
      if (typed === undefined) return undefined;
      params[name] = typed;
    }
  }
  return params;
}

/** Positive when `a` is more specific than `b` at the first segment where they differ. */
function compareRank(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** `/a/b/` → `["a", "b"]`; `/` → `[]`. */
function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+/, "").replace(/\/$/, "");
  return trimmed === "" ? [] : trimmed.split("/");
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function compileSegment(text: string): Segment {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const found of text.matchAll(/\{([^{}]+)\}/g)) {
    source += `${escapeRegExp(text.slice(last, found.index))}(.+?)`;
    names.push(found[1] as string);
    last = found.index + found[0].length;
  }
  if (names.length === 0) return { kind: "literal", text: decode(text) };
  source += escapeRegExp(text.slice(last));
  return {
    kind: "template",
    pattern: new RegExp(`^${source}$`, "s"),
    names,
    bare: names.length === 1 && source === "(.+?)",
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
