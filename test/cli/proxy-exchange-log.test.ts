/**
 * `conform proxy` says what it sees (issue 35 item 6): a line per judged exchange (method, path, status, verdict)
 * outside CI, a count a minute under CI (and at its end).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import { startProxy } from "../helpers/proxy-child.ts";

async function proxied(ci: boolean): Promise<string> {
  const server = await createReferenceServer({ http: true });
  try {
    const { CI: _ci, ...env } = process.env;
    const proxy = startProxy(
      new URL(server.baseUrl).origin,
      mkdtempSync(join(tmpdir(), "conform-proxy-log-")),
      ["--reporter", "json"],
      ci ? { ...env, CI: "true" } : env,
    );
    const url = await proxy.url;
    for (const path of ["/v4/compute/types?page=1", "/v4/nowhere"]) {
      const answer = await request(`${url}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
      await answer.body.text();
    }
    proxy.child.kill("SIGTERM");
    await proxy.exited;
    return proxy.output();
  } finally {
    await server.close();
  }
}

describe("conform proxy's exchange log", () => {
  it("prints a line per exchange outside CI: method, path (query hidden), status, verdict", async () => {
    const output = await proxied(false);
    expect(output).toContain("\nGET /v4/compute/types?… 200 ok\n");
    expect(output).toContain("\nGET /v4/nowhere 404 not in the description (not judged)\n");
    expect(output).not.toContain("judged in the last minute");
  });

  it("prints a count under CI instead", async () => {
    const output = await proxied(true);
    expect(output).not.toContain("GET /v4/compute/types");
    expect(output).toContain("conform proxy: 2 exchanges judged in the last minute, 0 failed\n");
  });
});
