/**
 * OAuth clients of the reference server over HTTPS (every response checked against the spec): the secret shown
 * once, redirect URI rules, `public` fixed at creation, events, and deletion revoking what the client obtained.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type ReferenceHarness, startReference } from "../helpers/reference.ts";

let harness: ReferenceHarness;

beforeAll(async () => {
  harness = await startReference();
});

interface Client {
  id: string;
  label: string;
  redirect_uri: string;
  public: boolean;
  secret: string;
  status: string;
  thumbnail_url: string | null;
}

async function createClient(body: Record<string, unknown>): Promise<Client> {
  const response = await harness.call("POST", "/account/oauth-clients", { json: body });
  expect(response.status, response.text).toBe(200);
  return response.body as Client;
}

describe("OAuth clients: create, read, list", () => {
  it("creates a private client and shows its secret only once", async () => {
    const created = await createClient({
      label: "conform-app",
      redirect_uri: "https://app.example.com/callback",
    });
    expect(created).toMatchObject({
      label: "conform-app",
      redirect_uri: "https://app.example.com/callback",
      public: false,
      status: "active",
      thumbnail_url: null,
    });
    expect(created.id).toMatch(/^[0-9a-f]{20}$/);
    expect(created.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(harness.server.state.events.at(-1)).toMatchObject({
      action: "oauth_client_create",
      entity: { id: created.id, label: "conform-app", type: "oauth_client" },
    });

    const read = await harness.call("GET", `/account/oauth-clients/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...created, secret: "<REDACTED>" });

    const list = await harness.call("GET", "/account/oauth-clients");
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual({ ...created, secret: "<REDACTED>" });
    expect(list.text).not.toContain(created.secret);
  });

  it("creates a public client when asked", async () => {
    const created = await createClient({ label: "spa", redirect_uri: "http://127.0.0.1:9/cb", public: true });
    expect(created.public).toBe(true);
  });

  it("answers 404 for an unknown client id", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await harness.call(method, "/account/oauth-clients/0000000000deadbeef00");
      expect(response.status).toBe(404);
    }
    const put = await harness.call("PUT", "/account/oauth-clients/0000000000deadbeef00", {
      json: { label: "x" },
    });
    expect(put.status).toBe(404);
  });

  it.each([
    ["https://app.example.com/callback"],
    ["http://127.0.0.1:8080/cb?from=conform"],
    ["https://app.example.com"],
  ])("accepts redirect_uri %j", async (redirectUri) => {
    expect((await createClient({ label: "ok", redirect_uri: redirectUri })).redirect_uri).toBe(redirectUri);
  });

  it.each([
    ["a relative path", "/callback"],
    ["another scheme", "ftp://files.example.com/cb"],
    ["a custom scheme", "myapp:callback"],
    ["a fragment", "https://app.example.com/cb#done"],
    ["no URL at all", "not a url"],
  ])("refuses a redirect_uri with %s (400 on redirect_uri)", async (_name, redirectUri) => {
    const response = await harness.call("POST", "/account/oauth-clients", {
      json: { label: "bad", redirect_uri: redirectUri },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field?: string }) => error.field)).toContain("redirect_uri");
  });

  it.each([
    ["a missing label", { redirect_uri: "https://a.example/cb" }, "label"],
    [
      "a label over 512 characters",
      { label: "x".repeat(513), redirect_uri: "https://a.example/cb" },
      "label",
    ],
    ["a missing redirect_uri", { label: "x" }, "redirect_uri"],
  ])("refuses %s", async (_name, body, field) => {
    const response = await harness.call("POST", "/account/oauth-clients", { json: body });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field?: string }) => error.field)).toContain(field);
  });

  it("a label of 512 characters is accepted", async () => {
    expect(
      (await createClient({ label: "y".repeat(512), redirect_uri: "https://a.example/cb" })).label,
    ).toHaveLength(512);
  });
});

describe("OAuth clients: update", () => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient({ label: "before", redirect_uri: "https://before.example/cb" });
  });

  it("changes label and redirect_uri, keeps the secret redacted, records an event", async () => {
    const response = await harness.call("PUT", `/account/oauth-clients/${client.id}`, {
      json: { label: "after", redirect_uri: "https://after.example/cb" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: client.id,
      label: "after",
      redirect_uri: "https://after.example/cb",
      secret: "<REDACTED>",
    });
    expect(harness.server.state.events.at(-1)).toMatchObject({ action: "oauth_client_update" });
  });

  it("accepts the current value of public (nothing changes)", async () => {
    const response = await harness.call("PUT", `/account/oauth-clients/${client.id}`, {
      json: { public: false },
    });
    expect(response.status).toBe(200);
  });

  it("refuses to change public, and reports a bad redirect_uri with it", async () => {
    const response = await harness.call("PUT", `/account/oauth-clients/${client.id}`, {
      json: { public: true, redirect_uri: "https://after.example/cb#x" },
    });
    expect(response.status).toBe(400);
    const fields = response.body.errors.map((error: { field?: string }) => error.field).sort();
    expect(fields).toEqual(["public", "redirect_uri"]);
    const read = await harness.call("GET", `/account/oauth-clients/${client.id}`);
    expect(read.body).toMatchObject({ public: false, redirect_uri: "https://after.example/cb" });
  });
});

describe("OAuth clients: delete", () => {
  it("deletes the client and revokes its access tokens, codes and refresh tokens", async () => {
    const client = await createClient({ label: "doomed", redirect_uri: "https://doomed.example/cb" });
    const { state } = harness.server;
    state.tokens.set("a".repeat(64), {
      id: state.nextId("token"),
      label: "doomed",
      scopes: "*",
      token: "a".repeat(64),
      created: "2026-01-01T00:00:00Z",
      expiresAt: Date.now() + 3_600_000,
      kind: "oauth",
      clientId: client.id,
    });
    state.authCodes.set("c0de", {
      code: "c0de",
      clientId: client.id,
      scopes: "*",
      redirectUri: client.redirect_uri,
      expiresAt: Date.now() + 600_000,
    });
    state.refreshTokens.set("b".repeat(64), { token: "b".repeat(64), clientId: client.id, scopes: "*" });
    expect((await harness.call("GET", "/profile", { token: "a".repeat(64) })).status).toBe(200);

    const deleted = await harness.call("DELETE", `/account/oauth-clients/${client.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    expect(harness.server.state.events.at(-1)).toMatchObject({
      action: "oauth_client_delete",
      entity: { id: client.id },
    });

    expect((await harness.call("GET", "/profile", { token: "a".repeat(64) })).status).toBe(401);
    expect(state.authCodes.has("c0de")).toBe(false);
    expect(state.refreshTokens.has("b".repeat(64))).toBe(false);
    expect((await harness.call("GET", `/account/oauth-clients/${client.id}`)).status).toBe(404);
    // The server's own personal token is untouched.
    expect((await harness.call("GET", "/profile")).status).toBe(200);
  });
});
