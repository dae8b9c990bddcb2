/** An instance's boot event stays `started` after the instance is running. */
import type { Fault } from "./types.ts";

export const bootEventNeverFinishes: Fault = {
  id: "boot-event-never-finishes",
  description: "a boot's event stays started (percent_complete 0) after the instance is running",
  detectedBy: {
    suites: ["events"],
    checks: ["assert:the boot's event eventually reads finished at 100 percent"],
  },
  apply: (target) => {
    target.behaviour.eventFinishes = (action) => action !== "compute_boot";
  },
};
