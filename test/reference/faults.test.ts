import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/reference/clock.ts";
import { type Fault, resolveFaults } from "../../src/reference/faults/index.ts";
import { wallClockIn } from "../../src/reference/faults/profile-timezone-in-times.ts";
import { ok } from "../../src/reference/http/reply.ts";
import { startReference } from "../helpers/reference.ts";

/** Faults made here exercise each seam a registered fault may use. */
const seams: Fault[] = [
  {
    id: "no-spec-version",
    description: "drops X-Spec-Version",
    detectedBy: { suites: [], checks: ["spec-version-header"] },
    apply: (target) =>
      target.rewriteReplies((outgoing) => {
        const { "X-Spec-Version": _dropped, ...headers } = outgoing.headers;
        return { ...outgoing, headers };
      }),
  },
  {
    id: "read-only-writes",
    description: "any token may do anything",
    detectedBy: { suites: [] },
    apply: (target) => {
      target.behaviour.scopeAllows = () => true;
    },
  },
  {
    id: "regions-empty",
    description: "GET /regions/{id} answers an empty object",
    detectedBy: { suites: [] },
    apply: (target) => target.wrapHandler("getRegion", () => () => ok({})),
  },
];

const faulty = await startReference({ faults: seams });
const clean = await startReference();

describe("fault seams", () => {
  it("a reply rewrite changes answers on their way out", async () => {
    const response = await faulty.call("GET", "/regions", { token: null });
    expect(response.headers["x-spec-version"]).toBeUndefined();
    expect((await clean.call("GET", "/regions", { token: null })).headers["x-spec-version"]).toBe("4.176.0");
  });

  it("a behaviour swap changes one decision", async () => {
    for (const harness of [faulty, clean]) {
      const minted = await harness.call("POST", "/profile/tokens", {
        json: { label: "ro", scopes: "nodebalancers:read_only" },
      });
      const write = await harness.call("POST", "/nodebalancers", {
        token: minted.body.token,
        json: { region: "us-east" },
        unchecked: true,
      });
      expect(write.status).toBe(harness === faulty ? 200 : 403);
    }
  });

  it("a wrapped handler answers instead of the real one", async () => {
    const response = await faulty.call("GET", "/regions/us-east", { token: null, unchecked: true });
    expect(response.body).toEqual({});
    expect(faulty.server.faults).toEqual(["no-spec-version", "read-only-writes", "regions-empty"]);
    expect(clean.server.faults).toEqual([]);
  });

  it("an unknown fault name is refused with the list of known ones", () => {
    expect(() => resolveFaults(["no-such-fault"])).toThrow(/unknown fault no-such-fault/);
  });
});

const noon = new ManualClock(Date.UTC(2026, 0, 1, 12));
const leaking = await startReference({ clock: noon, faults: ["profile-timezone-in-times"] });
const utc = await startReference({ clock: noon });

describe("profile-timezone-in-times", () => {
  it.each([
    ["2026-01-01T12:00:00", "America/New_York", "2026-01-01T07:00:00"],
    ["2026-07-01T12:00:00", "America/New_York", "2026-07-01T08:00:00"],
    ["2026-01-01T23:30:00", "Asia/Tokyo", "2026-01-02T08:30:00"],
    ["2026-01-01T12:00:00", "UTC", "2026-01-01T12:00:00"],
  ])("%s UTC on a %s wall clock is %s", (utc, zone, wall) => {
    expect(wallClockIn(utc, zone)).toBe(wall);
  });

  it("writes times on the profile's wall clock once the timezone is not UTC; the clean server keeps UTC", async () => {
    const createdOn = async (harness: typeof utc) =>
      (await harness.call("POST", "/profile/tokens", { json: { label: "tz" } })).body.created;
    expect(await createdOn(leaking)).toBe("2026-01-01T12:00:00");
    for (const harness of [leaking, utc]) {
      await harness.call("PUT", "/profile", { json: { timezone: "America/New_York" } });
    }
    expect(await createdOn(leaking)).toBe("2026-01-01T07:00:00");
    expect(await createdOn(utc)).toBe("2026-01-01T12:00:00");
  });
});
