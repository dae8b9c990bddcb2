/**
 * Reading a requested scope list (`*` or space-separated `<area>:read_only|read_write`) and comparing it with
 * the scopes of the token that asks for it. The areas are the description's; `vpc` has only `read_write`.
 * A list is normalised before it is stored: duplicates dropped, `<area>:read_only` dropped where the same
 * area's `read_write` is present (it is implied), and a `*` anywhere stands for the whole list.
 * @module
 */
import { scopeAllows } from "./scopes.ts";

export const scopeAreas = Object.freeze([
  "account",
  "databases",
  "domains",
  "events",
  "firewall",
  "images",
  "ips",
  "computes",
  "lke",
  "longview",
  "nodebalancers",
  "object_storage",
  "stackscripts",
  "volumes",
] as const);

const readWriteOnlyAreas = Object.freeze(["vpc"] as const);

/** Every scope a token can hold, but `*`. */
export const knownScopes: ReadonlySet<string> = new Set([
  ...scopeAreas.flatMap((area) => [`${area}:read_only`, `${area}:read_write`]),
  ...readWriteOnlyAreas.map((area) => `${area}:read_write`),
]);

export type ScopeListRead =
  | { readonly ok: true; readonly scopes: string }
  | { readonly ok: false; readonly reason: string };

/** Reads and normalises a scope list; refuses an empty list and names every unknown scope. */
export function readScopeList(text: string): ScopeListRead {
  const items = text.split(/\s+/).filter(Boolean);
  if (items.length === 0) return { ok: false, reason: "Request at least one scope (or * for all)" };
  const unknown = items.filter((item) => item !== "*" && !knownScopes.has(item));
  if (unknown.length > 0) {
    const names = [...new Set(unknown)].map((item) => JSON.stringify(item)).join(", ");
    return { ok: false, reason: `Unknown scope${unknown.length > 1 ? "s" : ""} ${names}` };
  }
  if (items.includes("*")) return { ok: true, scopes: "*" };
  const unique = [...new Set(items)];
  const kept = unique.filter((item) => {
    const [area, level] = item.split(":");
    return level !== "read_only" || !unique.includes(`${area}:read_write`);
  });
  return { ok: true, scopes: kept.join(" ") };
}

/** The requested scopes (normalised) that `granted` does not cover; `*` needs every area's read_write. */
export function scopesBeyond(granted: string, requested: string): string[] {
  if (requested === "*") {
    return [...knownScopes].some((scope) => !scopeAllows(granted, scope)) ? ["*"] : [];
  }
  return requested.split(" ").filter((scope) => scope !== "" && !scopeAllows(granted, scope));
}
