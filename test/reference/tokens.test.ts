/**
 * The profile and personal access tokens of the reference server, over HTTPS, every response checked against
 * the spec by the harness: create/list/delete, the scope rules, scopes enforced on the API, revocation and
 * expiry on a manual clock.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/reference/clock.ts";
import { type ReferenceHarness, startReference } from "../helpers/reference.ts";

let harness: ReferenceHarness;
const clock = new ManualClock();

beforeAll(async () => {
  harness = await startReference({ clock });
});

/** Creates a token with the server's `*` token (or `creator`) and returns the created body. */
async function createToken(body: Record<string, unknown>, creator?: string) {
  const response = await harness.call("POST", "/profile/tokens", { json: body, token: creator });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: number; token: string; scopes: string; label: string; expiry: string | null };
}

describe("profile", () => {
  it("answers the seeded user in UTC", async () => {
    const response = await harness.call("GET", "/profile");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      username: harness.server.user.username,
      email: harness.server.user.email,
      timezone: "UTC",
      restricted: false,
      uid: expect.any(Number),
    });
  });

  it.each([
    ["a zone name", { timezone: "America/New_York" }, 200, "America/New_York"],
    ["an alias", { timezone: "US/Eastern" }, 200, "US/Eastern"],
    ["no field: nothing changes", {}, 200, "US/Eastern"],
    ["an unknown zone", { timezone: "Mars/Olympus_Mons" }, 400, "US/Eastern"],
    ["back to UTC", { timezone: "UTC" }, 200, "UTC"],
  ])("updateProfile with %s answers %i, leaving timezone %s", async (_name, json, status, timezone) => {
    const response = await harness.call("PUT", "/profile", { json });
    expect(response.status, response.text).toBe(status);
    if (status === 400) expect(response.body).toMatchObject({ errors: [{ field: "timezone" }] });
    else expect(response.body.timezone).toBe(timezone);
    expect((await harness.call("GET", "/profile")).body.timezone).toBe(timezone);
  });

  it("updateProfile needs account:read_write", async () => {
    const token = (await createToken({ label: "ro-account", scopes: "account:read_only" })).token;
    const response = await harness.call("PUT", "/profile", { token, json: { timezone: "Europe/Paris" } });
    expect(response.status).toBe(403);
    expect(response.headers["x-accepted-oauth-scopes"]).toBe("account:read_write");
  });

  it("writes times in UTC, to the second, without designator, whatever the profile's timezone", async () => {
    await harness.call("PUT", "/profile", { json: { timezone: "Asia/Tokyo" } });
    try {
      const created = await harness.call("POST", "/profile/tokens", { json: { label: "tz" } });
      expect(created.body.created).toBe(new Date(clock.now()).toISOString().slice(0, 19));
    } finally {
      await harness.call("PUT", "/profile", { json: { timezone: "UTC" } });
    }
  });

  it("answers any valid token, whatever its scopes (facts.md: X-Accepted-OAuth-Scopes: *)", async () => {
    const token = (await createToken({ label: "no-account", scopes: "computes:read_only" })).token;
    const response = await harness.call("GET", "/profile", { token });
    expect(response.status).toBe(200);
    expect(response.headers["x-accepted-oauth-scopes"]).toBe("*");
  });
});

describe("personal access tokens: create, list, delete", () => {
  it("shows the token string in full only in the create response", async () => {
    const created = await createToken({
      label: "ci-token",
      scopes: "nodebalancers:read_write computes:read_only",
    });
    expect(created.token).toMatch(/^[0-9a-f]{64}$/);
    expect(created).toMatchObject({
      label: "ci-token",
      scopes: "nodebalancers:read_write computes:read_only",
    });
    expect(created.expiry).toBeNull();

    const list = await harness.call("GET", "/profile/tokens");
    expect(list.status).toBe(200);
    const listed = list.body.data.find((item: { id: number }) => item.id === created.id);
    expect(listed.token).toBe(`${created.token.slice(0, 16)}...`);
    expect(list.text).not.toContain(created.token);
    expect(list.text).not.toContain(harness.server.token);
    expect(harness.server.state.events.at(-1)).toMatchObject({
      action: "token_create",
      entity: { id: created.id, label: "ci-token", type: "token" },
    });
  });

  it("defaults scopes to * and generates a label when none is given", async () => {
    const created = await createToken({});
    expect(created.scopes).toBe("*");
    expect(created.label).toBe(`token${created.id}`);
  });

  it("normalises the scope list (duplicates, read_only implied by read_write)", async () => {
    const created = await createToken({
      scopes: "ips:read_only ips:read_write ips:read_write events:read_only",
    });
    expect(created.scopes).toBe("ips:read_write events:read_only");
  });

  it("keeps an expiry in the future and shows it in UTC, as the service writes times (no designator)", async () => {
    const at = clock.now() + 86_400_000;
    const utc = new Date(at).toISOString().slice(0, 19);
    const offset = `${new Date(at + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
    for (const expiry of [`${utc}Z`, `${utc}+00:00`, offset]) {
      expect((await createToken({ label: "expiring", expiry })).expiry).toBe(utc);
    }
  });

  it("revokes on delete: the token stops working with 401 Invalid Token", async () => {
    const created = await createToken({ label: "short-lived", scopes: "account:read_only" });
    expect((await harness.call("GET", "/profile", { token: created.token })).status).toBe(200);

    const deleted = await harness.call("DELETE", `/profile/tokens/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    expect(harness.server.state.events.at(-1)).toMatchObject({ action: "token_delete" });

    const refused = await harness.call("GET", "/profile", { token: created.token });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ errors: [{ reason: "Invalid Token" }] });
    expect(refused.headers["x-oauth-scopes"]).toBe("unknown");

    const list = await harness.call("GET", "/profile/tokens");
    expect(list.body.data.map((item: { id: number }) => item.id)).not.toContain(created.id);
    expect((await harness.call("DELETE", `/profile/tokens/${created.id}`)).status).toBe(404);
  });

  it("answers 404 for an unknown token id", async () => {
    const response = await harness.call("DELETE", "/profile/tokens/999999");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ reason: "Not found" }] });
  });
});

describe("personal access tokens: what a create may ask for", () => {
  it.each([
    ["*", "*"],
    ["computes:read_only", "computes:read_only"],
    ["vpc:read_write", "vpc:read_write"],
    [
      "object_storage:read_only nodebalancers:read_write",
      "object_storage:read_only nodebalancers:read_write",
    ],
  ])("accepts scopes %j", async (scopes, stored) => {
    expect((await createToken({ scopes })).scopes).toBe(stored);
  });

  it.each([
    ["an unknown area", { scopes: "compute:read_only" }, "scopes"],
    ["an unknown level", { scopes: "computes:write" }, "scopes"],
    ["vpc:read_only (vpc has read_write only)", { scopes: "vpc:read_only" }, "scopes"],
    ["an empty list", { scopes: "" }, "scopes"],
    ["an empty label", { label: "" }, "label"],
    ["a label over 100 characters", { label: "x".repeat(101) }, "label"],
    ["an expiry in the past", { expiry: "2020-01-01T00:00:00Z" }, "expiry"],
    ["an expiry that is not a date-time", { expiry: "tomorrow" }, "expiry"],
  ])("refuses %s with 400 on the field", async (_name, body, field) => {
    const response = await harness.call("POST", "/profile/tokens", { json: body });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field?: string }) => error.field)).toContain(field);
  });

  it("an expiry that is exactly now is not in the future", async () => {
    const response = await harness.call("POST", "/profile/tokens", {
      json: { expiry: new Date(clock.now()).toISOString() },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({
      field: "expiry",
      reason: "expiry must be in the future",
    });
  });

  describe("a token cannot grant scopes its creator's token lacks", () => {
    let creator: string;
    beforeAll(async () => {
      creator = (await createToken({ label: "creator", scopes: "account:read_write computes:read_only" }))
        .token;
    });

    it.each([["computes:read_only"], ["account:read_only"], ["account:read_write computes:read_only"]])(
      "accepts %j",
      async (scopes) => {
        expect((await createToken({ scopes }, creator)).scopes).toBe(scopes);
      },
    );

    it.each([
      ["*", "*"],
      ["computes:read_write", "computes:read_write"],
      ["account:read_only ips:read_only vpc:read_write", "ips:read_only vpc:read_write"],
    ])("refuses %j", async (scopes, lacking) => {
      const response = await harness.call("POST", "/profile/tokens", { json: { scopes }, token: creator });
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors[0].field).toBe("scopes");
      expect(response.body.errors[0].reason).toContain(`creator's token lacks: ${lacking}`);
    });

    it("reports the spec's problems, then every rule the handler finds, at once", async () => {
      const schema = await harness.call("POST", "/profile/tokens", {
        json: { label: "", scopes: "nope:read_only" },
      });
      expect(schema.status).toBe(400);
      expect(schema.body.errors.map((error: { field?: string }) => error.field).sort()).toEqual([
        "label",
        "scopes",
      ]);

      const rules = await harness.call("POST", "/profile/tokens", {
        json: { scopes: "*", expiry: "2020-01-01T00:00:00Z" },
        token: creator,
      });
      expect(rules.status).toBe(400);
      expect(rules.body.errors.map((error: { field?: string }) => error.field).sort()).toEqual([
        "expiry",
        "scopes",
      ]);
    });
  });
});

describe("scopes on the API", () => {
  it("computes:read_only may list instances but not create one", async () => {
    const { token } = await createToken({ label: "reader", scopes: "computes:read_only" });
    const list = await harness.call("GET", "/compute/instances", { token });
    expect(list.status).toBe(200);
    expect(list.headers["x-oauth-scopes"]).toBe("computes:read_only");

    const create = await harness.call("POST", "/compute/instances", {
      token,
      json: {
        region: "us-east",
        type: "g6-nanode-1",
        image: "linode/debian12",
        root_pass: "c0rrect-Horse-battery",
      },
    });
    expect(create.status).toBe(403);
    expect(create.headers["x-accepted-oauth-scopes"]).toBe("computes:read_write");
    expect(create.headers["x-oauth-scopes"]).toBe("computes:read_only");
    expect(create.body.errors[0].reason).toBeTruthy();
  });

  it("an expired token gets 401 Invalid Token", async () => {
    const expiry = new Date(clock.now() + 60_000).toISOString();
    const { token } = await createToken({ label: "minute", scopes: "account:read_only", expiry });
    expect((await harness.call("GET", "/profile", { token })).status).toBe(200);
    clock.advance(60_000);
    const refused = await harness.call("GET", "/profile", { token });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ errors: [{ reason: "Invalid Token" }] });
    expect(refused.headers["x-oauth-scopes"]).toBe("unknown");
  });
});
