/**
 * Account events: every state-changing operation appends one, as the real service's event feed does.
 * Actions follow the service's `<entity>_<verb>` naming (`nodebalancer_create`, `compute_boot`, ...); which write
 * emits which action is the table `eventActions` of src/spec/event-actions.ts, which the handlers follow
 * (test/reference/events.test.ts holds them to it). A power action's event is `started` (percent_complete 0) when
 * it is accepted and `finished` (100) when the instance reaches its end status, `failed` when another action or a
 * delete cuts it short (instance-lifecycle.ts).
 * @module
 */
import type { ReferenceBehaviour } from "./behaviour.ts";
import type { Clock } from "./clock.ts";
import type { EventRecord, ReferenceState } from "./state.ts";

export interface EventEntity {
  readonly id: number | string;
  readonly label: string;
  readonly type: string;
  readonly url: string;
}

export class ReferenceEvents {
  private readonly state: ReferenceState;
  private readonly clock: Clock;
  private readonly behaviour: ReferenceBehaviour;

  constructor(state: ReferenceState, clock: Clock, behaviour: ReferenceBehaviour) {
    this.state = state;
    this.clock = clock;
    this.behaviour = behaviour;
  }

  record(
    action: string,
    entity: EventEntity | null,
    status: EventRecord["status"] = "finished",
  ): EventRecord {
    const event: EventRecord = {
      id: this.state.nextId("event"),
      action,
      created: isoSeconds(this.clock.now()),
      username: this.state.user.username,
      seen: false,
      read: false,
      status,
      entity: entity ? { ...entity } : null,
      percent_complete: status === "finished" ? 100 : status === "started" ? 0 : null,
    };
    this.state.events.push(event);
    return event;
  }

  /** Ends a `started` event: `finished` at 100 percent (unless a fault keeps it running), or `failed`. */
  end(event: EventRecord, outcome: "finished" | "failed"): void {
    if (event.status !== "started") return;
    if (outcome === "finished" && !this.behaviour.eventFinishes(event.action)) return;
    event.status = outcome;
    if (outcome === "finished") event.percent_complete = 100;
  }
}

/**
 * A time as the real service writes it (cloud-api-v4.md "General facts", the spec's `UtcDateTime`): UTC whatever
 * the profile's timezone, seconds precision, `YYYY-MM-DDTHH:MM:SS` with no zone designator.
 */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}
