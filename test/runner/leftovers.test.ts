/**
 * Leftovers found and deleted by the description: on a copy of the bundled description whose paths are all
 * renamed (the reference server serving that copy), `cleanLeftovers` finds the run's labelled resources in every
 * collection, what lives under them first, and deletes them through the description's deletes; others' stay.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { cleanLeftovers } from "../../src/runner/leftovers.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { renamedDescription } from "../helpers/renamed-spec.ts";

const renaming: Record<string, string> = {
  nodebalancers: "balancers",
  configs: "profiles",
  compute: "machines",
  account: "acct",
  "oauth-clients": "apps",
  profile: "me",
};

const servers: ReferenceServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

describe("cleanLeftovers by the description", () => {
  it("on renamed paths: finds the prefix's resources in every collection, children first, and leaves the rest", async () => {
    const spec = await loadSpec(renamedDescription(renaming));
    const server = await createReferenceServer({ spec, http: true });
    servers.push(server);
    const post = async (path: string, json: unknown) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
        body: JSON.stringify(json),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as { id: number | string };
    };
    const mine = await post("/balancers", { region: "us-east", label: "conform-ab12cd-web" });
    await post(`/balancers/${mine.id}/profiles`, { port: 80 });
    await post("/balancers", { region: "us-east", label: "production-web" });
    await post("/acct/apps", { label: "conform-ab12cd-app", redirect_uri: "https://example.test/cb" });

    const lines: string[] = [];
    const options = {
      spec,
      baseUrl: server.baseUrl,
      token: server.token,
      prefix: "conform-ab12cd",
      onProgress: (line: string) => lines.push(line),
    };
    const dry = await cleanLeftovers({ ...options, dryRun: true });
    expect(dry.failed).toEqual([]);
    expect(dry.found.map((leftover) => `${leftover.kind} ${leftover.label}`)).toEqual([
      "balancers/profiles (no label)",
      "balancers conform-ab12cd-web",
      "acct/apps conform-ab12cd-app",
    ]);
    expect(dry.found[0]!.deletePath).toMatch(/^\/balancers\/\d+\/profiles\/\d+$/);

    const real = await cleanLeftovers({ ...options, dryRun: false });
    expect(real.failed).toEqual([]);
    expect(real.deleted).toHaveLength(3);
    expect([...server.state.nodeBalancers.values()].map((record) => record.label)).toEqual([
      "production-web",
    ]);
    expect(server.state.configs.size).toBe(0);
    expect(lines.filter((line) => line.startsWith("deleted")).map((line) => line.split(" ")[1])).toEqual([
      "balancers/profiles",
      "balancers",
      "acct/apps",
    ]);
  });
});
