/**
 * The account's event feed (`getEvents`): every write of the workflows is recorded as an event with the action of
 * its kind and an `entity` naming what it changed; the feed lists newest first and filters by `action`, by `id`
 * and by the entity's id (the dotted key `entity.id`); an instance's boot is an event that moves from `started` to
 * `finished` (percent_complete 100) as the instance comes up, as SDKs that wait for a boot by polling the feed expect; and the feed needs the events scope.
 *
 * Which write emits which action is the table `eventActions` below: the one place it is written (the reference
 * server's handlers follow it; test/reference/events.test.ts holds them to it). The description says "not shown";
 * these are the real service's action names (docs/api/facts.md), with `linode` written `compute`.
 *
 * A target's feed may lag its writes (eventual consistency): the writes' events are waited for all at once, under
 * one run deadline (`suiteOptions.workflows.deadlineMs`); when the feed lists none of them by then (a mock without
 * state), one failure says so and the boot's event is not waited for again. Creates one load balancer with a profile and a node, one instance (never
 * booted before the boot case), a private address, a token and an OAuth client; all are deleted at the end of the
 * run (the ledger). The `entity.id` filter is judged where the description marks it filterable (an integer id and
 * a string one, the address, when the writes made both).
 */
import {
  type CaseContext,
  type CreateDelete,
  call,
  chooseImage,
  chooseRegion,
  chooseType,
  createRegistered,
  defineSuite,
  expectCreated,
  expectStatus,
  expectSuccess,
  isSuccess,
  type LiveResponse,
  mintOrSkip,
  mintToken,
  redirectUriOf,
  registerOAuthClient,
  requireOperation,
  strongPassword,
  waitFor,
  waitForAll,
} from "../../src/index.ts";

/** An event's action and the `entity.type` it names, for one write. */
export interface EventKind {
  readonly action: string;
  readonly entityType: string;
}

/**
 * Which write (by operationId) records which event. Deletes record `<kind>_delete` too; the boot, reboot and
 * shutdown actions record a `started` event that becomes `finished` when the instance reaches its status.
 */
export const eventActions: Readonly<Record<string, EventKind>> = {
  createNodeBalancer: { action: "nodebalancer_create", entityType: "nodebalancer" },
  updateNodeBalancer: { action: "nodebalancer_update", entityType: "nodebalancer" },
  deleteNodeBalancer: { action: "nodebalancer_delete", entityType: "nodebalancer" },
  createNodeBalancerConfig: { action: "nodebalancer_config_create", entityType: "nodebalancer_config" },
  updateNodeBalancerConfig: { action: "nodebalancer_config_update", entityType: "nodebalancer_config" },
  rebuildNodeBalancerConfig: { action: "nodebalancer_config_rebuild", entityType: "nodebalancer_config" },
  deleteNodeBalancerConfig: { action: "nodebalancer_config_delete", entityType: "nodebalancer_config" },
  createNodeBalancerConfigNode: { action: "nodebalancer_node_create", entityType: "nodebalancer_node" },
  createNodeBalancerNodeDeprecated: { action: "nodebalancer_node_create", entityType: "nodebalancer_node" },
  updateNodeBalancerConfigNode: { action: "nodebalancer_node_update", entityType: "nodebalancer_node" },
  deleteNodeBalancerConfigNode: { action: "nodebalancer_node_delete", entityType: "nodebalancer_node" },
  createComputeInstance: { action: "compute_create", entityType: "compute" },
  updateComputeInstance: { action: "compute_update", entityType: "compute" },
  deleteComputeInstance: { action: "compute_delete", entityType: "compute" },
  bootComputeInstance: { action: "compute_boot", entityType: "compute" },
  rebootComputeInstance: { action: "compute_reboot", entityType: "compute" },
  shutdownComputeInstance: { action: "compute_shutdown", entityType: "compute" },
  allocateIP: { action: "ipaddress_allocate", entityType: "ipaddress" },
  updateIP: { action: "ipaddress_update", entityType: "ipaddress" },
  createPersonalAccessToken: { action: "token_create", entityType: "token" },
  deletePersonalAccessToken: { action: "token_delete", entityType: "token" },
  createOAuthClient: { action: "oauth_client_create", entityType: "oauth_client" },
  updateOAuthClient: { action: "oauth_client_update", entityType: "oauth_client" },
  deleteOAuthClient: { action: "oauth_client_delete", entityType: "oauth_client" },
};

interface Entity {
  readonly id?: unknown;
  readonly label?: unknown;
  readonly type?: unknown;
  readonly url?: unknown;
}

interface Event {
  readonly id?: unknown;
  readonly action?: unknown;
  readonly created?: unknown;
  readonly status?: unknown;
  readonly percent_complete?: unknown;
  readonly entity?: Entity | null;
}

/** A write the suite made, and what its event must show. */
interface Write {
  readonly operationId: string;
  readonly entityId: number | string;
  /** The label the write gave, when the event's entity must carry it. */
  readonly label?: string;
}

const instanceOps: CreateDelete = ["createComputeInstance", "deleteComputeInstance"];
const recorded = "every write appears in the event feed with the action of its kind";

function kindOf(t: CaseContext, operationId: string): EventKind {
  const kind = eventActions[operationId];
  return kind ?? t.skip(`the events table has no row for ${operationId}`);
}

/** The events of one page answered (an empty list when it is not one). */
function eventsOf(response: LiveResponse | undefined): Event[] {
  const data = (response?.json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data)
    ? (data.filter((item) => typeof item === "object" && item !== null) as Event[])
    : [];
}

/** Reads the feed's first page, filtered by `filter` when given (newest first: what was just written is on it). */
function readFeed(t: CaseContext, filter?: object, token?: string): Promise<LiveResponse> {
  return call(t, "getEvents", {
    ...(filter === undefined ? {} : { filter }),
    ...(token === undefined ? {} : { token }),
  });
}

function sameId(a: unknown, b: unknown): boolean {
  return a !== undefined && a !== null && String(a) === String(b);
}

/** The event of `write` on an answer, if listed. */
function eventOf(t: CaseContext, write: Write, response: LiveResponse | undefined): Event | undefined {
  const { action } = kindOf(t, write.operationId);
  return eventsOf(response).find(
    (event) => event.action === action && sameId(event.entity?.id, write.entityId),
  );
}

function showFeed(response: LiveResponse | undefined): string {
  if (!response) return "no answer";
  if (response.status !== 200) return `HTTP ${response.status}`;
  const shown = eventsOf(response)
    .slice(0, 5)
    .map((event) => `${String(event.action)} ${String(event.entity?.type)} ${String(event.entity?.id)}`);
  return `${eventsOf(response).length} events (${shown.join(", ") || "none"})`;
}

const writeKey = (write: Write) => `${write.operationId} of ${write.entityId}`;

/**
 * Waits for the events of all `writes` at once, under one deadline (each read filtered by its action); answers
 * the answer that listed each one, by write, and whether the feed showed none of them.
 */
async function waitForEvents(t: CaseContext, writes: readonly Write[]) {
  const waited = await waitForAll(
    t,
    recorded,
    writes.map((write) => {
      const { action } = kindOf(t, write.operationId);
      return {
        key: writeKey(write),
        poll: () => readFeed(t, { action }),
        accept: (response: LiveResponse) => eventOf(t, write, response) !== undefined,
        describe: (response: LiveResponse | undefined) => `as ${action}: ${showFeed(response)}`,
      };
    }),
  );
  for (const write of writes) {
    const answer = waited.happened.get(writeKey(write));
    if (!answer) continue;
    const { action } = kindOf(t, write.operationId);
    const others = eventsOf(answer).filter((event) => event.action !== action);
    t.expect("a filter on action lists only events of that action", others.length === 0, {
      expected: action,
      actual: others.map((event) => event.action),
      response: answer,
    });
  }
  return waited;
}

/** Set when the feed listed none of the writes' events: later cases do not wait for events again. */
const feedSilent = "feed-silent";
const silentReason =
  "the feed listed none of the writes' events within the deadline (case writes-recorded): not waited for again";

/** Where the target's own `entity.url` leads, relative to the API's base; undefined when it is elsewhere. */
function relativeToBase(t: CaseContext, url: string): string | undefined {
  const base = new URL(t.target.baseUrl);
  const resolved = URL.parse(url, base.href);
  if (!resolved || resolved.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/$/, "");
  if (!resolved.pathname.startsWith(`${prefix}/`)) return undefined;
  return resolved.pathname.slice(prefix.length);
}

/** Judges the entity of `write`'s event: its id, type and label, and a url that answers 200 where it is a read. */
async function judgeEntity(t: CaseContext, write: Write, event: Event): Promise<void> {
  const { action, entityType } = kindOf(t, write.operationId);
  const entity = event.entity ?? {};
  const named = `${action} of ${write.entityId}`;
  t.expect("an event's entity has the type of its resource", entity.type === entityType, {
    expected: entityType,
    actual: entity.type,
    message: `${named}: entity.type ${JSON.stringify(entity.type)}, expected ${entityType}`,
  });
  if (write.label !== undefined) {
    t.expect("an event's entity has the label of its resource", entity.label === write.label, {
      expected: write.label,
      actual: entity.label,
      message: `${named}: entity.label ${JSON.stringify(entity.label)}, expected ${write.label}`,
    });
  }
  const url = entity.url;
  if (typeof url !== "string") {
    t.expect("an event's entity has a url", false, { expected: "a URL", actual: url, message: named });
    return;
  }
  const path = relativeToBase(t, url);
  const read = path === undefined ? undefined : t.spec.operations.match("GET", path);
  if (path === undefined || !read) {
    t.log(`${named}: entity.url ${url} is no read the description declares: not requested`);
    return;
  }
  const answer = await t.api.get(path);
  expectStatus(t, "an event's entity url answers 200", answer, 200, `${named}: GET ${url}`);
}

function instanceStatus(response: LiveResponse | undefined): string {
  const status = (response?.json as { status?: unknown } | undefined)?.status;
  return typeof status === "string" ? status : `HTTP ${response?.status ?? "none"}`;
}

function showEvent(event: Event | undefined): string {
  return event
    ? `${String(event.action)} ${String(event.status)} at ${String(event.percent_complete)} percent`
    : "no event";
}

export default defineSuite({
  id: "events",
  title: "The account's event feed",
  description:
    "Each write of the workflows appears in the feed with its action and entity, newest first, filterable; a boot's event finishes as the instance runs; the events scope.",
  tags: ["writes"],
  cases: [
    {
      id: "writes-recorded",
      title:
        "Each write (load balancer, profile and its update, instance, address, node, token, OAuth client) is listed with the action of its kind and an entity naming it",
      run: async (t) => {
        const writes: Write[] = [];
        const add = (write: Write) => writes.push(write);
        const region = await chooseRegion(t, ["balancers", "instances"]);

        const label = t.label("events");
        const balancer = await createRegistered(
          t,
          ["createNodeBalancer", "deleteNodeBalancer"],
          "load balancer",
          {
            json: { region, label },
          },
        );
        if (!expectCreated(t, "the load balancer is created", balancer)) return;
        add({ operationId: "createNodeBalancer", entityId: balancer.id, label });

        const profileLabel = t.label("events-web");
        const profile = await createRegistered(
          t,
          ["createNodeBalancerConfig", "deleteNodeBalancerConfig"],
          "profile",
          { params: [balancer.id], json: { label: profileLabel, port: 80, protocol: "http" } },
        );
        if (!expectCreated(t, "the profile is created", profile)) return;
        add({ operationId: "createNodeBalancerConfig", entityId: profile.id });
        const updated = await call(t, "updateNodeBalancerConfig", {
          params: [balancer.id, profile.id],
          json: { check_attempts: 2 },
        });
        if (expectSuccess(t, "the profile is updated", updated))
          add({ operationId: "updateNodeBalancerConfig", entityId: profile.id });

        const instanceLabel = t.label("events-vm");
        const json = {
          region,
          type: await chooseType(t),
          image: chooseImage(t),
          root_pass: strongPassword(t),
          booted: false,
          label: instanceLabel,
        };
        const instance = await createRegistered(t, instanceOps, "instance", { json });
        if (!expectCreated(t, "an instance is created with booted false", instance)) return;
        add({ operationId: "createComputeInstance", entityId: instance.id, label: instanceLabel });
        t.shared.set("instance", instance.id);

        const allocated = await call(t, "allocateIP", {
          json: { type: "ipv4", public: false, compute_id: instance.id },
        });
        const address = (allocated.json as { address?: unknown } | undefined)?.address;
        if (
          expectSuccess(t, "a private IPv4 is given to the instance", allocated) &&
          typeof address === "string"
        ) {
          add({ operationId: "allocateIP", entityId: address });
          const nodeLabel = t.label("events-node");
          const node = await createRegistered(
            t,
            ["createNodeBalancerConfigNode", "deleteNodeBalancerConfigNode"],
            "node",
            { params: [balancer.id, profile.id], json: { label: nodeLabel, address: `${address}:80` } },
          );
          if (expectCreated(t, "the node is created", node))
            add({ operationId: "createNodeBalancerConfigNode", entityId: node.id, label: nodeLabel });
        }

        const scopes = requireOperation(t, "getEvents").security.scopes[0] ?? "events:read_only";
        const minted = await mintToken(t, "events-reader", scopes);
        t.expect("a token is created", minted.ok, { expected: 200, actual: minted.response.status });
        if (minted.ok) {
          add({ operationId: "createPersonalAccessToken", entityId: minted.minted.id });
          t.shared.set("reader", minted.minted.token);
        }

        const client = await registerOAuthClient(t, "events-app", {
          redirectUri: redirectUriOf(t),
          public: false,
        });
        t.expect("an OAuth client is created", client.ok, { expected: 200, actual: client.response.status });
        if (client.ok) add({ operationId: "createOAuthClient", entityId: client.client.id });

        const found: number[] = [];
        const listed: Write[] = [];
        const waited = await waitForEvents(t, writes);
        if (waited.noneHappened) t.shared.set(feedSilent, true);
        for (const write of writes) {
          const event = eventOf(t, write, waited.happened.get(writeKey(write)));
          if (!event) continue;
          await judgeEntity(t, write, event);
          listed.push(write);
          if (typeof event.id === "number") found.push(event.id);
        }
        if (found.length === writes.length) t.shared.set("event-ids", found);
        t.shared.set("listed-writes", listed);
      },
    },
    {
      id: "newest-first",
      title: "The feed lists newest first: the writes' events in the reverse of the order they were made",
      run: async (t) => {
        const ids = t.shared.get("event-ids") as number[] | undefined;
        if (!ids || ids.length < 2)
          return t.skip("no events of the writes: the first case did not find them all");
        const response = await readFeed(t, { "+or": ids.map((id) => ({ id })) });
        if (!expectSuccess(t, "the feed is read filtered by id", response)) return;
        const listed = eventsOf(response).map((event) => event.id);
        t.expect(
          "the feed lists newest first",
          JSON.stringify(listed) === JSON.stringify([...ids].reverse()),
          {
            expected: [...ids].reverse(),
            actual: listed,
            response,
          },
        );
        const created = eventsOf(response).map((event) => String(event.created));
        t.expect(
          "newer events have no earlier created time",
          created.every((time, index) => index === 0 || time <= created[index - 1]!),
          { expected: "created not increasing down the list", actual: created, response },
        );
      },
    },
    {
      id: "entity-filter",
      title:
        "Filtered by entity.id (an integer id and a string one), the feed lists only that entity's events, the write's among them",
      run: async (t) => {
        const listed = t.shared.get("listed-writes") as Write[] | undefined;
        if (!listed || listed.length === 0)
          return t.skip("no events of the writes: the first case found none");
        const feed = requireOperation(t, "getEvents");
        if (!feed.filterableFields.some((field) => field.name === "entity.id"))
          return t.skip("the description does not mark the events' entity.id filterable");
        // One write whose entity id is an integer and one whose id is a string (the address), where made.
        const chosen = [
          listed.find((write) => typeof write.entityId === "number"),
          listed.find((write) => typeof write.entityId === "string"),
        ].filter((write): write is Write => write !== undefined);
        for (const write of chosen) {
          const filter = { "entity.id": write.entityId };
          const named = `entity.id ${JSON.stringify(write.entityId)}`;
          const foreign = (response: LiveResponse | undefined) =>
            eventsOf(response).filter((event) => event.entity?.id !== write.entityId);
          // A target's feed may lag; an answer that lists another entity is judged at once.
          const answer = await waitFor(
            t,
            `the feed filtered by ${named} lists the write's event`,
            () => readFeed(t, filter),
            (response) =>
              response.status !== 200 ||
              eventOf(t, write, response) !== undefined ||
              foreign(response).length > 0,
            (response) => `${named}: ${showFeed(response)}`,
            { required: false },
          );
          if (!answer || !expectSuccess(t, "the feed is read filtered by entity.id", answer)) continue;
          const others = foreign(answer);
          t.expect("a filter on entity.id lists only events of that entity", others.length === 0, {
            expected: `every event's entity.id ${JSON.stringify(write.entityId)}`,
            actual: others
              .slice(0, 5)
              .map((event) => `${String(event.action)} of ${JSON.stringify(event.entity?.id ?? null)}`),
            message: `${named}: ${others.length} event(s) of another entity or none`,
            response: answer,
          });
          t.expect("a filter on entity.id lists the write's event", eventOf(t, write, answer) !== undefined, {
            expected: `${kindOf(t, write.operationId).action} of ${write.entityId}`,
            actual: showFeed(answer),
            response: answer,
          });
        }
      },
    },
    {
      id: "boot-event",
      title:
        "A boot is an event that moves from started to finished, percent_complete reaching 100, as the instance runs",
      run: async (t) => {
        const id = t.shared.get("instance") as number | undefined;
        if (id === undefined) return t.skip("no instance: the first case did not create one");
        if (t.shared.get(feedSilent)) return t.skip(silentReason);
        const read = () => call(t, "getComputeInstance", { params: [id] });
        const settled = await waitFor(
          t,
          "the instance created with booted false eventually settles",
          read,
          (response) => response.status === 200 && instanceStatus(response) !== "provisioning",
          instanceStatus,
        );
        if (!settled) return;
        const boot = requireOperation(t, "bootComputeInstance");
        const booted = await call(t, boot.operationId, {
          params: [id],
          ...(boot.requestBody ? { json: {} } : {}),
        });
        if (!expectSuccess(t, "the boot action is accepted", booted)) return;
        const write: Write = { operationId: boot.operationId, entityId: id };
        const seen: string[] = [];
        const finished = await waitFor(
          t,
          "the boot's event eventually reads finished at 100 percent",
          () => readFeed(t, { action: kindOf(t, boot.operationId).action }),
          (response) => {
            const event = eventOf(t, write, response);
            if (!event) return false;
            const shown = `${String(event.status)} ${String(event.percent_complete)}`;
            if (seen.at(-1) !== shown) seen.push(shown);
            if (event.status === "started") {
              const percent = event.percent_complete;
              t.expect(
                "a started event is not yet complete",
                percent === null || (typeof percent === "number" && percent < 100),
                { expected: "percent_complete below 100 or null", actual: percent, response },
              );
            }
            return event.status === "finished" && event.percent_complete === 100;
          },
          (response) => showEvent(eventOf(t, write, response)),
        );
        t.log(`the boot's event was seen as: ${seen.join(" → ") || "never"}`);
        if (!finished) return;
        // Once the event says the boot finished, the instance has come up.
        const after = await read();
        t.expect(
          "when the boot's event finishes the instance is running",
          instanceStatus(after) === "running",
          {
            expected: "running",
            actual: instanceStatus(after),
            response: after,
          },
        );
      },
    },
    {
      id: "events-scope",
      title: "The feed is read with the events scope and refused (403) to a token of another area",
      run: async (t) => {
        const reader = t.shared.get("reader") as string | undefined;
        if (reader === undefined) return t.skip("no events token: the first case did not mint one");
        const allowed = await readFeed(t, undefined, reader);
        expectStatus(t, "the feed is read with the events scope", allowed, 200);
        const stranger = await mintOrSkip(t, "events-stranger", "nodebalancers:read_only");
        const refused = await readFeed(t, undefined, stranger.token);
        expectStatus(t, "the feed is refused without the events scope", refused, 403);
        t.expect("a refusal lists no events", !isSuccess(refused) && eventsOf(refused).length === 0, {
          expected: "no events",
          actual: eventsOf(refused).length,
          response: refused,
        });
      },
    },
  ],
});
