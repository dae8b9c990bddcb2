/** One write of the workflows, a profile's creation, records no event. */
import type { Fault } from "./types.ts";

export const writeWithoutEvent: Fault = {
  id: "write-without-event",
  description: "creating a load balancer's profile records no nodebalancer_config_create event",
  detectedBy: {
    suites: ["events"],
    // The suite's wait for each write's event, and the run's end judging the feed reads it made.
    checks: [
      "assert:every write appears in the event feed with the action of its kind",
      "observed-write-recorded",
    ],
  },
  apply: (target) =>
    target.wrapHandler("createNodeBalancerConfig", (original) => async (context) => {
      const reply = await original(context);
      const { events } = target.state;
      const recorded = events.findLastIndex((event) => event.action === "nodebalancer_config_create");
      if (recorded >= 0) events.splice(recorded, 1);
      return reply;
    }),
};
