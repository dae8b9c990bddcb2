/**
 * The account's event feed (`getEvents`): every write of the workflows is recorded as an event with the action of
 * its kind and an `entity` naming what it changed; the feed lists newest first and filters by `action`, by `id`
 * and by the entity's id (the dotted key `entity.id`); an instance's boot is an event that moves from `started` to
 * `finished` (percent_complete 100) as the instance comes up, as SDKs that wait for a boot by polling the feed expect; and the feed needs the events scope.
 *
 * Which write emits which action is the package's table `eventActions` (src/spec/event-actions.ts): the one place
 * it is written (the reference server's handlers follow it; test/reference/events.test.ts holds them to it). The
 * description says "not shown"; these are the real service's action names, with `linode` written `compute`.
 *
 * A target's feed may lag its writes (eventual consistency): the writes' events are waited for all at once, under
 * one run deadline (`suiteOptions.workflows.deadlineMs`); when the feed lists none of them by then (a mock without
 * state), one failure says so and the boot's event is not waited for again. Creates one load balancer with a profile and a node, one instance (never
 * booted before the boot case), a private address, a token and an OAuth client; all are deleted at the end of the
 * run (the ledger). The `entity.id` filter is judged where the description marks it filterable (an integer id and
 * a string one, the address, when the writes made both).
 */
import {
  call,
  defineSuite,
  expectStatus,
  expectSuccess,
  isSuccess,
  type LiveResponse,
  mintOrSkip,
  requireOperation,
  sharedKey,
  waitFor,
} from "../../src/index.ts";
import {
  eventOf,
  eventsOf,
  instanceStatus,
  judgeEntity,
  kindOf,
  readFeed,
  showEvent,
  showFeed,
  type Write,
  waitForEvents,
  writeKey,
} from "./support/event-feed.ts";
import { makeWrites } from "./support/event-writes.ts";

/** What the first case hands on: what it made, and which of its writes' events the feed listed. */
const from = "writes-recorded";
const instanceKey = sharedKey<number>("instance", { what: "the instance", from });
const readerKey = sharedKey<string>("reader", { what: "a token with the events scope", from });
const eventIdsKey = sharedKey<number[]>("event-ids", { what: "the events of every write", from });
const listedKey = sharedKey<Write[]>("listed-writes", { what: "the writes the feed listed", from });
/** Set when the feed listed none of the writes' events: later cases do not wait for events again. */
const feedSilent = sharedKey<boolean>("feed-silent");
const silentReason =
  "the feed listed none of the writes' events within the deadline (case writes-recorded): not waited for again";

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
        const writes = await makeWrites(t, {
          instance: (id) => t.shared.set(instanceKey, id),
          reader: (token) => t.shared.set(readerKey, token),
        });
        if (!writes) return;
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
        if (found.length === writes.length) t.shared.set(eventIdsKey, found);
        t.shared.set(listedKey, listed);
      },
    },
    {
      id: "newest-first",
      title: "The feed lists newest first: the writes' events in the reverse of the order they were made",
      run: async (t) => {
        const ids = t.needs(eventIdsKey);
        if (ids.length < 2) return t.skip("fewer than two writes' events: no order to judge");
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
        const listed = t.needs(listedKey);
        if (listed.length === 0)
          return t.skip("no events of the writes: the feed listed none of them (case writes-recorded)");
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
        const id = t.needs(instanceKey);
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
        const reader = t.needs(readerKey);
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
