/**
 * The reference server's event feed follows the package's table of which write records which event (`eventActions`): each write records the
 * action and entity type the table gives; a power action's event is `started` at 0 percent, `finished` at 100
 * when the instance reaches its status, and `failed` when another action cuts it short.
 */
import { describe, expect, it } from "vitest";
import { eventActions } from "../../src/index.ts";
import { type ApiResponse, startReference } from "../helpers/reference.ts";

// Delays shrink 100-fold (provisioning 20 ms, boot 30 ms).
const fast = await startReference({ timeScale: 0.01 });
// Delays as they are (boot 3 s): an event read at once is still started.
const slow = await startReference({ timeScale: 1 });

interface Event {
  id: number;
  action: string;
  status: string;
  percent_complete: number | null;
  entity: { id: number | string; type: string; label: string; url: string } | null;
}

async function newest(harness = fast): Promise<Event> {
  const response = await harness.call("GET", "/account/events");
  return response.body.data[0] as Event;
}

function ok(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("every write records the event the suite's table names", () => {
  it("walks the workflows' writes, each one's newest event matching its row", async () => {
    const seen: string[] = [];
    const step = async (operationId: string, method: string, path: string, json?: unknown) => {
      const body = ok(await fast.call(method, path, json === undefined ? {} : { json }));
      const event = await newest();
      const row = eventActions[operationId]!;
      expect({ operationId, action: event.action, type: event.entity?.type }).toEqual({
        operationId,
        action: row.action,
        type: row.entityType,
      });
      seen.push(operationId);
      return body;
    };
    const lb = await step("createNodeBalancer", "POST", "/nodebalancers", {
      region: "us-east",
      label: "ev-lb",
    });
    await step("updateNodeBalancer", "PUT", `/nodebalancers/${lb.id}`, { label: "ev-lb-2" });
    const configs = `/nodebalancers/${lb.id}/configs`;
    const config = await step("createNodeBalancerConfig", "POST", configs, { port: 80 });
    await step("updateNodeBalancerConfig", "PUT", `${configs}/${config.id}`, { check_attempts: 2 });
    const vm = await step("createComputeInstance", "POST", "/compute/instances", {
      region: "us-east",
      type: "g6-standard-2",
      label: "ev-vm",
      booted: false,
    });
    await step("updateComputeInstance", "PUT", `/compute/instances/${vm.id}`, { label: "ev-vm-2" });
    const ip = await step("allocateIP", "POST", "/networking/ips", {
      type: "ipv4",
      public: false,
      compute_id: vm.id,
    });
    await step("updateIP", "PUT", `/networking/ips/${vm.ipv4[0]}`, { rdns: null });
    const nodes = `${configs}/${config.id}/nodes`;
    const node = await step("createNodeBalancerConfigNode", "POST", nodes, {
      label: "ev-node",
      address: `${ip.address}:80`,
    });
    await step("updateNodeBalancerConfigNode", "PUT", `${nodes}/${node.id}`, { weight: 10 });
    await step("deleteNodeBalancerConfigNode", "DELETE", `${nodes}/${node.id}`);
    await step("rebuildNodeBalancerConfig", "POST", `${configs}/${config.id}/rebuild`, { nodes: [] });
    await step("deleteNodeBalancerConfig", "DELETE", `${configs}/${config.id}`);
    await step("deleteNodeBalancer", "DELETE", `/nodebalancers/${lb.id}`);
    await step("bootComputeInstance", "POST", `/compute/instances/${vm.id}/boot`);
    await step("shutdownComputeInstance", "POST", `/compute/instances/${vm.id}/shutdown`);
    await step("rebootComputeInstance", "POST", `/compute/instances/${vm.id}/reboot`);
    await step("deleteComputeInstance", "DELETE", `/compute/instances/${vm.id}`);
    const token = await step("createPersonalAccessToken", "POST", "/profile/tokens", { label: "ev-token" });
    await step("deletePersonalAccessToken", "DELETE", `/profile/tokens/${token.id}`);
    const client = await step("createOAuthClient", "POST", "/account/oauth-clients", {
      label: "ev-app",
      redirect_uri: "https://example.invalid/cb",
    });
    await step("updateOAuthClient", "PUT", `/account/oauth-clients/${client.id}`, { label: "ev-app-2" });
    await step("deleteOAuthClient", "DELETE", `/account/oauth-clients/${client.id}`);
    // Every row but the deprecated node alias (the same handler as the node create) was walked.
    expect(Object.keys(eventActions).filter((id) => !seen.includes(id))).toEqual([
      "createNodeBalancerNodeDeprecated",
    ]);
  });
});

describe("a power action's event", () => {
  it("is started at 0 percent, then finished at 100 once the instance runs", async () => {
    const vm = ok(
      await fast.call("POST", "/compute/instances", {
        json: { region: "us-east", type: "g6-standard-2", label: "ev-boot", booted: false },
      }),
    );
    ok(await fast.call("POST", `/compute/instances/${vm.id}/boot`));
    const events = (
      await fast.call("GET", "/account/events", { headers: { "x-filter": '{"action":"compute_boot"}' } })
    ).body.data as Event[];
    const boot = events.find((event) => event.entity?.id === vm.id)!;
    let read = boot;
    // Bounded polling (at most 400 reads): the boot takes 30 ms here.
    for (let poll = 0; poll < 400 && read.status !== "finished"; poll += 1) {
      read = (await fast.call("GET", "/account/events", { headers: { "x-filter": `{"id":${boot.id}}` } }))
        .body.data[0] as Event;
    }
    expect({ status: read.status, percent: read.percent_complete }).toEqual({
      status: "finished",
      percent: 100,
    });
    expect(ok(await fast.call("GET", `/compute/instances/${vm.id}`)).status).toBe("running");
  });

  it("is started while the boot runs, and failed when a shutdown cuts it short", async () => {
    const vm = ok(
      await slow.call("POST", "/compute/instances", {
        json: { region: "us-east", type: "g6-standard-2", label: "ev-cut", booted: false },
      }),
    );
    ok(await slow.call("POST", `/compute/instances/${vm.id}/boot`));
    const boot = await newest(slow);
    expect([boot.action, boot.status, boot.percent_complete]).toEqual(["compute_boot", "started", 0]);
    ok(await slow.call("POST", `/compute/instances/${vm.id}/shutdown`));
    const events = (await slow.call("GET", "/account/events")).body.data as Event[];
    expect(events.find((event) => event.id === boot.id)?.status).toBe("failed");
    expect(events[0]?.action).toBe("compute_shutdown");
    ok(await slow.call("DELETE", `/compute/instances/${vm.id}`));
  });
});
