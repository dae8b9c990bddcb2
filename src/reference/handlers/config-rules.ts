/**
 * The rules of a configuration profile, checked on the whole profile a request asks for: the defaults (create)
 * or the current profile (update, rebuild) with the request's fields laid over it. Every broken rule is
 * reported, each naming its field. The spec already checked types, enums and bounds before the handler runs.
 *
 * Rules (facts.md and the description):
 * - port is unique within its load balancer (`port`);
 * - check_interval is greater than check_timeout (`check_interval`);
 * - check `http` and `http_body` need a non-empty check_path, `http_body` also a non-empty check_body;
 * - proxy_protocol `v1`/`v2` only with protocol `tcp` (`proxy_protocol`);
 * - protocol `https` needs ssl_cert and ssl_key, sent together (each missing one is its own error), unless the
 *   request leaves both out and the profile already has them; `http` and `tcp` take neither (an error names
 *   each one sent); switching away from `https` clears the stored certificate and key;
 * - the certificate and key themselves are checked by `tls-material.ts`.
 * Choice: a profile `label` (the description's "name of the profile") is kept when given and shown only then;
 * it has no uniqueness rule.
 * @module
 */
import type { HandlerContext } from "../context.ts";
import { type ApiErrorItem, fieldError } from "../http/reply.ts";
import type { ConfigRecord, NodeBalancerRecord } from "../state.ts";
import { checkTlsPair } from "../tls-material.ts";
import { configsOf } from "./balancer-shared.ts";
import { has } from "./shared.ts";

/** A stored profile (the state's record, label included). */
export type ProfileRecord = ConfigRecord;

/** Every field of a profile but its identity. */
export type ProfileDraft = Omit<ProfileRecord, "id" | "nodebalancer_id">;

export const profileDefaults: Readonly<ProfileDraft> = Object.freeze({
  port: 80,
  protocol: "http",
  algorithm: "roundrobin",
  stickiness: "none",
  check: "none",
  check_interval: 31,
  check_timeout: 30,
  check_attempts: 3,
  check_path: "",
  check_body: "",
  check_passive: true,
  proxy_protocol: "none",
  cipher_suite: "recommended",
  ssl_cert: null,
  ssl_key: null,
  ssl_commonname: "",
  ssl_fingerprint: "",
});

const choices = {
  protocol: ["http", "https", "tcp"],
  algorithm: ["roundrobin", "leastconn", "source"],
  stickiness: ["none", "table", "http_cookie"],
  check: ["none", "connection", "http", "http_body"],
  proxy_protocol: ["none", "v1", "v2"],
  cipher_suite: ["recommended", "legacy"],
} as const;

type Body = Readonly<Record<string, unknown>>;

/** The profile's label, when it has one. */
export function profileLabel(record: ConfigRecord): string | undefined {
  return "label" in record && typeof record.label === "string" ? record.label : undefined;
}

function choice<K extends keyof typeof choices>(
  body: Body,
  name: K,
  fallback: ProfileDraft[K],
): ProfileDraft[K] {
  const value = body[name];
  return (choices[name] as readonly unknown[]).includes(value) ? (value as ProfileDraft[K]) : fallback;
}

const integer = (body: Body, name: string, fallback: number): number =>
  typeof body[name] === "number" && Number.isInteger(body[name]) ? (body[name] as number) : fallback;

const text = (body: Body, name: string, fallback: string): string =>
  typeof body[name] === "string" ? (body[name] as string) : fallback;

/** The plain fields of the request laid over `base` (no certificate handling). */
function overlay(base: Readonly<ProfileDraft>, body: Body): ProfileDraft {
  const draft: ProfileDraft = {
    port: integer(body, "port", base.port),
    protocol: choice(body, "protocol", base.protocol),
    algorithm: choice(body, "algorithm", base.algorithm),
    stickiness: choice(body, "stickiness", base.stickiness),
    check: choice(body, "check", base.check),
    check_interval: integer(body, "check_interval", base.check_interval),
    check_timeout: integer(body, "check_timeout", base.check_timeout),
    check_attempts: integer(body, "check_attempts", base.check_attempts),
    check_path: text(body, "check_path", base.check_path),
    check_body: text(body, "check_body", base.check_body),
    check_passive: typeof body.check_passive === "boolean" ? body.check_passive : base.check_passive,
    proxy_protocol: choice(body, "proxy_protocol", base.proxy_protocol),
    cipher_suite: choice(body, "cipher_suite", base.cipher_suite),
    ssl_cert: base.ssl_cert,
    ssl_key: base.ssl_key,
    ssl_commonname: base.ssl_commonname,
    ssl_fingerprint: base.ssl_fingerprint,
  };
  const label = typeof body.label === "string" ? body.label : base.label;
  if (label !== undefined) draft.label = label;
  return draft;
}

function clearCertificate(draft: ProfileDraft): void {
  draft.ssl_cert = null;
  draft.ssl_key = null;
  draft.ssl_commonname = "";
  draft.ssl_fingerprint = "";
}

/** Applies (or refuses) the certificate and key of the request to the draft. */
function certificateErrors(draft: ProfileDraft, body: Body): ApiErrorItem[] {
  const certSent = has(body, "ssl_cert");
  const keySent = has(body, "ssl_key");
  if (draft.protocol !== "https") {
    clearCertificate(draft);
    const errors: ApiErrorItem[] = [];
    for (const [sent, field] of [
      [certSent, "ssl_cert"],
      [keySent, "ssl_key"],
    ] as const) {
      if (sent) errors.push(fieldError(field, `${field} is only accepted with protocol https`));
    }
    return errors;
  }
  if (!certSent && !keySent && draft.ssl_cert !== null && draft.ssl_key !== null) return [];
  const errors: ApiErrorItem[] = [];
  if (!certSent) errors.push(fieldError("ssl_cert", "ssl_cert is required with protocol https"));
  if (!keySent) errors.push(fieldError("ssl_key", "ssl_key is required with protocol https"));
  if (errors.length > 0) return errors;
  const checked = checkTlsPair(String(body.ssl_cert), String(body.ssl_key));
  if (!checked.ok) return checked.errors;
  draft.ssl_cert = checked.certificate;
  draft.ssl_key = checked.privateKey;
  draft.ssl_commonname = checked.facts.commonName;
  draft.ssl_fingerprint = checked.facts.fingerprint;
  return [];
}

function ruleErrors(
  context: HandlerContext,
  nodeBalancer: NodeBalancerRecord,
  draft: ProfileDraft,
  currentId: number | undefined,
): ApiErrorItem[] {
  const errors: ApiErrorItem[] = [];
  const clash = configsOf(context, nodeBalancer.id).find(
    (other) => other.port === draft.port && other.id !== currentId,
  );
  if (clash) {
    errors.push(fieldError("port", `Port ${draft.port} is already configured on this load balancer`));
  }
  if (draft.check_interval <= draft.check_timeout) {
    errors.push(
      fieldError(
        "check_interval",
        `check_interval (${draft.check_interval}) must be greater than check_timeout (${draft.check_timeout})`,
      ),
    );
  }
  if ((draft.check === "http" || draft.check === "http_body") && draft.check_path === "") {
    errors.push(fieldError("check_path", `check_path is required with check ${draft.check}`));
  }
  if (draft.check === "http_body" && draft.check_body === "") {
    errors.push(fieldError("check_body", "check_body is required with check http_body"));
  }
  if (draft.proxy_protocol !== "none" && draft.protocol !== "tcp") {
    errors.push(
      fieldError(
        "proxy_protocol",
        `proxy_protocol ${draft.proxy_protocol} is only accepted with protocol tcp`,
      ),
    );
  }
  return errors;
}

export type ProfileDraftResult =
  | { readonly ok: true; readonly draft: ProfileDraft }
  | { readonly ok: false; readonly errors: ApiErrorItem[] };

/**
 * The profile a request asks for: `current` (update, rebuild) or the defaults (create) with the request's
 * fields over it, checked against every rule.
 */
export function draftProfile(
  context: HandlerContext,
  nodeBalancer: NodeBalancerRecord,
  body: Body,
  current?: ProfileRecord,
): ProfileDraftResult {
  const draft = overlay(current ?? profileDefaults, body);
  const errors = [
    ...ruleErrors(context, nodeBalancer, draft, current?.id),
    ...certificateErrors(draft, body),
  ];
  return errors.length > 0 ? { ok: false, errors } : { ok: true, draft };
}

/** Copies a checked draft onto a stored profile, field by field. */
export function applyProfile(record: ProfileRecord, draft: ProfileDraft): void {
  record.port = draft.port;
  record.protocol = draft.protocol;
  record.algorithm = draft.algorithm;
  record.stickiness = draft.stickiness;
  record.check = draft.check;
  record.check_interval = draft.check_interval;
  record.check_timeout = draft.check_timeout;
  record.check_attempts = draft.check_attempts;
  record.check_path = draft.check_path;
  record.check_body = draft.check_body;
  record.check_passive = draft.check_passive;
  record.proxy_protocol = draft.proxy_protocol;
  record.cipher_suite = draft.cipher_suite;
  record.ssl_cert = draft.ssl_cert;
  record.ssl_key = draft.ssl_key;
  record.ssl_commonname = draft.ssl_commonname;
  record.ssl_fingerprint = draft.ssl_fingerprint;
  if (draft.label !== undefined) record.label = draft.label;
}
