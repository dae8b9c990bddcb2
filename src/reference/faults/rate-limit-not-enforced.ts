/** Rate limits are counted and announced but never enforced: no request is ever refused with 429. */
import type { Fault } from "./types.ts";

export const rateLimitNotEnforced: Fault = {
  id: "rate-limit-not-enforced",
  description: "requests past a rate limit are served instead of refused with 429",
  detectedBy: { suites: ["rate-limits"], checks: ["assert:past the limit, requests answer 429"] },
  apply: ({ behaviour }) => {
    behaviour.withinRateLimit = () => true;
  },
};
