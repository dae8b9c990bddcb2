/** An https port keeps presenting the first certificate it served, whatever certificate the profile has now. */
import type { Fault } from "./types.ts";

export const httpsKeepsOldCertificate: Fault = {
  id: "https-keeps-old-certificate",
  description:
    "the load balancer keeps serving the certificate it first served on a port after the profile gets a new one",
  detectedBy: {
    suites: ["workflow-balancer"],
    checks: ["assert:the handshake on port 443 presents the uploaded certificate"],
  },
  apply: (target) => {
    target.behaviour.tlsServed = (previous, configured) => previous ?? configured;
  },
};
