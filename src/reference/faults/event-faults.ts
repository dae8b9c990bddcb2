/** Faults of the account's event feed: one file each, listed here. */
import { bootEventNeverFinishes } from "./boot-event-never-finishes.ts";
import { eventEntityFilterIgnored } from "./event-entity-filter-ignored.ts";
import type { Fault } from "./types.ts";
import { writeWithoutEvent } from "./write-without-event.ts";

export const eventFaults: readonly Fault[] = [
  writeWithoutEvent,
  bootEventNeverFinishes,
  eventEntityFilterIgnored,
];
