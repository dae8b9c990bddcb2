/**
 * The reference server's replaceable behaviour: the few decisions a named fault (faults/) may swap to break
 * exactly one thing. The clean server uses these defaults; the hot path pays one property lookup per decision.
 * @module
 */
import { anyScopeAllows } from "./auth/scopes.ts";
import { applyFilter, type ParsedFilter } from "./filter.ts";
import { type ListPage, type ListQuery, paginate, parseListQuery } from "./list-query.ts";
import type { NodeRecord, TokenRecord } from "./state.ts";

export interface ReferenceBehaviour {
  /** May a token with `granted` scopes use an operation needing any of `required`? */
  scopeAllows: (granted: string, required: readonly string[]) => boolean;
  /** Has this token expired at `now` (epoch ms)? */
  tokenExpired: (token: TokenRecord, now: number) => boolean;
  /** Reads page, page_size and X-Filter of a list request. */
  parseListQuery: typeof parseListQuery;
  /** Filters and orders a whole collection. */
  applyFilter: <T extends object>(items: readonly T[], filter: ParsedFilter) => T[];
  /** Slices a collection into the list envelope (calls `applyFilter`). */
  paginate: <T extends object>(
    items: readonly T[],
    list: ListQuery | undefined,
    behaviour: ReferenceBehaviour,
  ) => ListPage<T>;
  /** The outcome of one health probe of a node (true: up), given what the real probe found. */
  probeOutcome: (probed: boolean) => boolean;
  /** Does a profile listen on its port at all (data-plane.ts)? */
  balancerListens: () => boolean;
  /** The port a profile listens on, given the one it listens on now (if any) and the one it configures. */
  listenedPort: (previous: number | undefined, configured: number) => number;
  /** The nodes of a profile a connection may go to, in round-robin order. */
  forwardsTo: (nodes: readonly NodeRecord[]) => NodeRecord[];
  /** The certificate and key an https listener serves, given the profile's and the one last served on its port. */
  tlsServed: <T>(previous: T | undefined, configured: T) => T;
  /** May one more request go in a rate-limit window that has counted `count` of `limit`? */
  withinRateLimit: (count: number, limit: number) => boolean;
  /** Does a `started` event of this action become `finished` when what it records is done (events.ts)? */
  eventFinishes: (action: string) => boolean;
}

export function defaultBehaviour(): ReferenceBehaviour {
  return {
    scopeAllows: anyScopeAllows,
    tokenExpired: (token, now) => token.expiresAt !== null && token.expiresAt <= now,
    parseListQuery,
    applyFilter,
    paginate: (items, list, behaviour) => paginate(items, list, behaviour.applyFilter),
    probeOutcome: (probed) => probed,
    balancerListens: () => true,
    listenedPort: (_previous, configured) => configured,
    forwardsTo: (nodes) => nodes.filter((node) => node.status === "UP"),
    tlsServed: (_previous, configured) => configured,
    withinRateLimit: (count, limit) => count < limit,
    eventFinishes: () => true,
  };
}
