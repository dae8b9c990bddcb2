/**
 * The HTTPS update accepts a certificate whose subject is blank: when the blank subject is the only thing wrong,
 * the profile is switched anyway (protocol, port, certificate and key stored, common name empty).
 */
import { X509Certificate } from "node:crypto";
import { findConfig } from "../handlers/balancer-shared.ts";
import { presentConfig } from "../handlers/config-present.ts";
import { bodyOf } from "../handlers/shared.ts";
import { ok } from "../http/reply.ts";
import { decodePem } from "../tls-material.ts";
import type { Fault } from "./types.ts";

function onlyBlankSubject(body: unknown): boolean {
  const errors = (body as { errors?: { field?: string; reason: string }[] } | undefined)?.errors ?? [];
  return (
    errors.length > 0 &&
    errors.every((error) => error.field === "ssl_cert" && /blank subject/.test(error.reason))
  );
}

export const blankSubjectAccepted: Fault = {
  id: "blank-subject-accepted",
  description: "the HTTPS update accepts a certificate whose subject details are blank",
  detectedBy: {
    suites: ["workflow-balancer"],
    checks: ["assert:a certificate with a blank subject is refused with 400"],
  },
  apply: (target) =>
    target.wrapHandler("updateNodeBalancerConfig", (original) => async (context) => {
      const reply = await original(context);
      const found = findConfig(context);
      if (reply.status !== 400 || !onlyBlankSubject(reply.body) || !found) return reply;
      const body = bodyOf(context);
      const certificate = decodePem(String(body.ssl_cert));
      const { config } = found;
      config.protocol = "https";
      if (typeof body.port === "number") config.port = body.port;
      config.ssl_cert = certificate;
      config.ssl_key = decodePem(String(body.ssl_key));
      config.ssl_commonname = "";
      config.ssl_fingerprint = new X509Certificate(certificate).fingerprint256;
      context.health.watch(config);
      return ok(presentConfig(config, context.state));
    }),
};
