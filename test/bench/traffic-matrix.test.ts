/**
 * Issue 34's done-when: a realistic client (`bench/realistic-client.ts`) driven through `conform proxy` against the
 * reference with each of its faults, the HAR judged again by `conform verify`. Pins, per fault, whether the traffic
 * exercised it and whether the proxy and verify caught it, and that the clean reference raises no alarm; every
 * fault not caught has its reason (`missReasons`). A check removed, or a fault added, shows here.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { missReasons, runTrafficMatrix, type TrafficMatrix } from "../../bench/traffic-matrix.ts";

/** fault, exercised, caught by the proxy, caught by verify. */
const expected: readonly (readonly [string, boolean, boolean, boolean])[] = [
  ["accepted-scopes-header-missing", true, true, true],
  ["balancer-forwards-to-down-nodes", false, false, false],
  ["balancer-starts-with-profile", true, true, true],
  ["balancer-wrong-port", false, false, false],
  ["blank-subject-accepted", false, false, false],
  ["boot-event-never-finishes", true, false, false],
  ["child-listed-under-every-parent", false, false, false],
  ["client-secret-shown", true, true, true],
  ["content-type-wrong", true, true, true],
  ["cors-missing", true, true, true],
  ["default-page-size-wrong", true, true, true],
  ["delete-keeps-item", true, true, true],
  ["deprecated-alias-answers-200", true, true, true],
  ["duplicate-node-label-accepted", false, false, false],
  ["error-field-missing", true, true, true],
  ["event-entity-filter-ignored", true, true, true],
  ["expired-token-accepted", false, false, false],
  ["expires-in-wrong", true, true, true],
  ["filter-contains-case-folded", true, true, true],
  ["filter-gt-as-gte", true, true, true],
  ["filter-neq-ignored", true, true, true],
  ["filter-nested-and-flattened", true, true, true],
  ["filter-or-as-and", true, true, true],
  ["filter-order-ignored", true, true, true],
  ["filter-unfilterable-accepted", false, false, false],
  ["first-error-only", false, false, false],
  ["hsts-missing", true, true, true],
  ["https-keeps-old-certificate", false, false, false],
  ["huge-page-500", false, false, false],
  ["id-as-string", true, true, true],
  ["id-reused-after-delete", false, false, false],
  ["invalid-body-accepted", true, true, true],
  ["list-misses-newest", true, true, true],
  ["malformed-json-500", false, false, false],
  ["no-token-answers-403", true, true, true],
  ["node-other-region-accepted", false, false, false],
  ["node-up-without-listener", true, false, false],
  ["nodes-never-up", false, false, false],
  ["nodes-status-missing", true, true, true],
  ["nodes-status-swapped", true, true, true],
  ["page-repeats-item", true, true, true],
  ["page-size-ignored", true, true, true],
  ["page-size-out-of-range-accepted", false, false, false],
  ["pages-at-default-size", true, true, true],
  ["pages-off-by-one", true, true, true],
  ["port-never-listens", false, false, false],
  ["port-shared-by-profiles", false, false, false],
  ["profile-protocol-kept", true, true, true],
  ["profile-timezone-in-times", true, true, true],
  ["public-client-refresh-token", false, false, false],
  ["rate-limit-not-enforced", false, false, false],
  ["rate-limit-remaining-frozen", true, true, true],
  ["read-only-token-writes", false, false, false],
  ["refresh-token-reusable", false, false, false],
  ["refused-create-leaves-half-made", false, false, false],
  ["retry-after-missing", false, false, false],
  ["root-pass-echoed", true, true, true],
  ["spec-version-missing", true, true, true],
  ["spec-version-wrong", true, true, true],
  ["ssl-key-echoed", true, true, true],
  ["unbooted-instance-boots", true, true, true],
  ["update-not-persisted", true, true, true],
  ["vary-missing", true, true, true],
  ["write-without-event", true, true, true],
];

describe("the realistic client through conform proxy, each fault of the reference", () => {
  let matrix: TrafficMatrix;
  // 65 passes of about 60 requests each, three at a time: about 25 s on a quiet machine of 2 cores.
  beforeAll(async () => {
    matrix = await runTrafficMatrix({ concurrency: 3 });
  }, 180_000);

  it("catches, in the proxy and in verify on its HAR, what the traffic exercises; no alarm when clean", () => {
    expect(matrix.clean).toMatchObject({ proxy: [], verify: [] });
    expect(matrix.clean.exchanges).toBeGreaterThan(50);
    const seen = matrix.rows.map((row) => [row.id, row.exercised, row.proxy.caught, row.verify.caught]);
    expect(seen).toEqual(expected);
  });

  it("gives the reason for every fault it does not catch, and none for a caught one", () => {
    const missed = matrix.rows.filter((row) => !row.proxy.caught || !row.verify.caught).map((row) => row.id);
    expect(Object.keys(missReasons).sort()).toEqual(missed);
  });
});
