/**
 * Scope rules of the description: each area has `read_only` and `read_write`; `read_write` implies
 * `read_only`; `*` grants every area read_write.
 * @module
 */

/** True when a token holding `granted` (`*` or space-separated scopes) may use an operation needing `required`. */
export function scopeAllows(granted: string, required: string): boolean {
  const scopes = granted.split(/\s+/).filter(Boolean);
  if (scopes.includes("*")) return true;
  const [area, level] = required.split(":");
  return scopes.some(
    (scope) => scope === required || (level === "read_only" && scope === `${area}:read_write`),
  );
}

/** True when any of `required` (the spec's any-of list) is allowed. */
export function anyScopeAllows(granted: string, required: readonly string[]): boolean {
  // No scope named: any valid token may call it (getProfile, facts.md "Profile").
  return required.length === 0 || required.some((scope) => scopeAllows(granted, scope));
}
