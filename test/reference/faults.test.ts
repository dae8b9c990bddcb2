import { describe, expect, it } from "vitest";
import { type Fault, resolveFaults } from "../../src/reference/faults/index.ts";
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
