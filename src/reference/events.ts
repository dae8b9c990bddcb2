/**
 * Account events: every state-changing operation appends one, as the real service's event feed does.
 * Actions follow the service's `<entity>_<verb>` naming (`nodebalancer_create`, `compute_boot`, ...).
 * @module
 */
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

  constructor(state: ReferenceState, clock: Clock) {
    this.state = state;
    this.clock = clock;
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
      percent_complete: status === "finished" ? 100 : null,
    };
    this.state.events.push(event);
    return event;
  }
}

/**
 * A time as the real service writes it (cloud-api-v4.md "General facts", the spec's `UtcDateTime`): UTC whatever
 * the profile's timezone, seconds precision, `YYYY-MM-DDTHH:MM:SS` with no zone designator.
 */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}
