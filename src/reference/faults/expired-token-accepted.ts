/** Tokens never expire: a personal token past its `expiry` (and an OAuth token past 7200 s) still works. */
import type { Fault } from "./types.ts";

export const expiredTokenAccepted: Fault = {
  id: "expired-token-accepted",
  description: "a token past its expiry is still accepted",
  detectedBy: { suites: ["auth"], checks: ["assert:an expired token is refused"] },
  apply: ({ behaviour }) => {
    behaviour.tokenExpired = () => false;
  },
};
