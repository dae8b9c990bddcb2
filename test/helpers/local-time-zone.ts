/**
 * Runs the enclosing `describe` block on a machine whose local time is not UTC (`TZ=America/New_York`), restoring
 * the zone after: `Date.parse` would read a time without designator as local time there.
 */
import { afterAll, beforeAll } from "vitest";

export function inLocalTimeZone(zone = "America/New_York"): void {
  const before = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
