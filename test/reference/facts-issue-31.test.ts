/**
 * Issue 31: the reference server follows the corrected facts (docs/api/facts.md), as the real service answers.
 * Each row was refused or answered otherwise before: the event feed ordered and filtered by `created`, `read`;
 * `seen` refused; the addresses' lenient `compute_id` filter; tokens and OAuth clients filterable; the profile
 * readable with any token (`X-Accepted-OAuth-Scopes: *`); `"tags": null` on create; `check_path`'s characters;
 * another address type refused with a reason and no field. Every answer is validated against the spec.
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, startReference } from "../helpers/reference.ts";

const harness = await startReference({ timeScale: 0.01 });
const filtered = (path: string, filter: unknown) =>
  harness.call("GET", path, { headers: { "x-filter": JSON.stringify(filter) } });
const reasons = (response: ApiResponse) =>
  (response.body.errors as { reason: string; field?: string }[]).map((error) => error.reason);

describe("lists filter as the real service does", () => {
  it.each<[string, string, unknown]>([
    [
      "events polled by created, newest first",
      "/account/events",
      { "+order_by": "created", "+order": "desc" },
    ],
    ["events by created", "/account/events", { created: "2018-01-02T03:04:05" }],
    ["events by read", "/account/events", { read: false }],
    ["addresses by compute_id (lenient)", "/networking/ips", { compute_id: 1 }],
    ["tokens by label", "/profile/tokens", { label: "x" }],
    ["tokens by created", "/profile/tokens", { "+order_by": "created" }],
    ["OAuth clients by label", "/account/oauth-clients", { label: "x" }],
    ["OAuth clients by public", "/account/oauth-clients", { public: true }],
  ])("accepts %s", async (_name, path, filter) => {
    const response = await filtered(path, filter);
    expect(response.status, response.text).toBe(200);
  });

  it.each([["seen"], ["username"]])("refuses events by %s: Cannot filter on it", async (field) => {
    const response = await filtered("/account/events", { [field]: "x" });
    expect(response.status).toBe(400);
    expect(reasons(response)).toContain(`Cannot filter on ${field}`);
  });
});

describe("the profile", () => {
  it("answers 200 to a token of another area, accepting any scope", async () => {
    const minted = await harness.call("POST", "/profile/tokens", {
      json: { label: "events-only", scopes: "events:read_only" },
    });
    expect(minted.status, minted.text).toBe(200);
    const response = await harness.call("GET", "/profile", { token: minted.body.token });
    expect(response.status).toBe(200);
    expect(response.headers["x-accepted-oauth-scopes"]).toBe("*");
  });
});

describe("writes", () => {
  it('takes "tags": null on a new load balancer as none', async () => {
    const response = await harness.call("POST", "/nodebalancers", {
      json: { region: "us-east", label: "tags-null", tags: null },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.tags).toEqual([]);
  });

  it.each([
    ["/health?ready=1&x=%20.y-z", 200],
    ["/health check", 400],
    ["/héalth", 400],
    ["/a;b", 400],
  ])("check_path %j answers %i", async (checkPath, status) => {
    const balancer = await harness.call("POST", "/nodebalancers", { json: { region: "us-east" } });
    const response = await harness.call("POST", `/nodebalancers/${balancer.body.id}/configs`, {
      json: { port: 80, check: "http", check_path: checkPath },
    });
    expect(response.status, response.text).toBe(status);
    if (status === 400) expect(response.body.errors[0].field).toBe("check_path");
  });

  it("refuses an address type other than ipv4 with the service's reason and no field", async () => {
    const response = await harness.call("POST", "/networking/ips", {
      json: { type: "ipv6", public: true, compute_id: 987_654 },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({
      reason: "Only addresses of type ipv4 are currently supported.",
    });
  });
});
