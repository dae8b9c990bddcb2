/**
 * JSON pointers (RFC 6901) into the loaded document, and internal `$ref` resolution without dereferencing:
 * the document keeps its `$ref`s (ajv compiles them as references), and the index follows them on demand.
 * @module
 * @internal
 */

/** Escapes one reference token: `~` → `~0`, `/` → `~1`. */
export function escapeToken(token: string | number): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Builds a pointer from reference tokens (`["paths", "/a", "get"]` → `/paths/~1a/get`). */
export function pointerOf(tokens: readonly (string | number)[]): string {
  let pointer = "";
  for (const token of tokens) pointer += `/${escapeToken(token)}`;
  return pointer;
}

/** Appends tokens to a pointer. */
export function childPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  return pointer + pointerOf(tokens);
}

/** Splits a pointer into unescaped tokens; `undefined` when it is not a pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at a pointer, or `undefined` when there is none. */
export function valueAt(document: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return undefined;
  let value = document;
  for (const token of tokens) {
    if (value === null || typeof value !== "object") return undefined;
    if (Array.isArray(value)) {
      if (!/^(?:0|[1-9]\d*)$/.test(token)) return undefined;
      value = value[Number(token)];
    } else {
      if (!Object.hasOwn(value, token)) return undefined;
      value = (value as Record<string, unknown>)[token];
    }
  }
  return value;
}

/** The pointer of an internal `$ref` (`#/components/schemas/A` → `/components/schemas/A`), else `undefined`. */
export function refPointer(ref: string): string | undefined {
  if (!ref.startsWith("#")) return undefined;
  const fragment = ref.slice(1);
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** A pointer as a URI fragment (each token percent-encoded), for `$ref`s that ajv resolves. */
export function pointerToFragment(pointer: string): string {
  const tokens = parsePointer(pointer) ?? [];
  return tokens.map((token) => `/${encodeURIComponent(escapeToken(token))}`).join("");
}

/** True for an object with a string `$ref`. */
export function isRef(
  value: unknown,
): value is Readonly<Record<string, unknown>> & { readonly $ref: string } {
  return (
    typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string"
  );
}

export type Resolved =
  | { readonly ok: true; readonly value: unknown; readonly pointer: string }
  | { readonly ok: false; readonly reason: "external" | "missing" | "circular"; readonly ref: string };

/** At most this many `$ref`s are followed in one chain (a guard beside the cycle check). */
const maxChain = 64;

/**
 * Follows a chain of `$ref`s from `value` (found at `pointer`) to the first value that is not a reference.
 * Never loops: a chain that comes back to itself is reported as `circular`.
 */
export function resolveRef(document: unknown, value: unknown, pointer: string): Resolved {
  let current = value;
  let at = pointer;
  const seen = new Set<string>();
  while (isRef(current)) {
    const ref = current.$ref;
    const target = refPointer(ref);
    if (target === undefined) return { ok: false, reason: "external", ref };
    if (seen.has(target) || seen.size >= maxChain) return { ok: false, reason: "circular", ref };
    seen.add(target);
    const next = valueAt(document, target);
    if (next === undefined) return { ok: false, reason: "missing", ref };
    current = next;
    at = target;
  }
  return { ok: true, value: current, pointer: at };
}

/** Follows `$ref`s like {@link resolveRef}, giving `undefined` when they do not lead to a value. */
export function deref(document: unknown, value: unknown): unknown {
  const resolved = resolveRef(document, value, "");
  return resolved.ok ? resolved.value : undefined;
}

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
