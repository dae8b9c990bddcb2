/**
 * How a configuration profile is shown: ssl_cert and ssl_key are never echoed (`<REDACTED>` when set, null
 * when not), the label only when the profile has one, and nodes_status is computed at read: `up` counts UP
 * nodes, `down` every other (DOWN and the not yet probed `Unknown`).
 * @module
 */
import type { ConfigRecord, ReferenceState } from "../state.ts";
import { profileLabel } from "./config-rules.ts";

const redacted = "<REDACTED>";

export function presentConfig(record: ConfigRecord, state: ReferenceState): Record<string, unknown> {
  let up = 0;
  let down = 0;
  for (const node of state.nodes.values()) {
    if (node.config_id !== record.id) continue;
    if (node.status === "UP") up += 1;
    else down += 1;
  }
  const label = profileLabel(record);
  return {
    id: record.id,
    nodebalancer_id: record.nodebalancer_id,
    ...(label === undefined ? {} : { label }),
    port: record.port,
    protocol: record.protocol,
    algorithm: record.algorithm,
    stickiness: record.stickiness,
    check: record.check,
    check_interval: record.check_interval,
    check_timeout: record.check_timeout,
    check_attempts: record.check_attempts,
    check_path: record.check_path,
    check_body: record.check_body,
    check_passive: record.check_passive,
    proxy_protocol: record.proxy_protocol,
    cipher_suite: record.cipher_suite,
    ssl_commonname: record.ssl_commonname,
    ssl_fingerprint: record.ssl_fingerprint,
    ssl_cert: record.ssl_cert === null ? null : redacted,
    ssl_key: record.ssl_key === null ? null : redacted,
    nodes_status: { up, down },
  };
}

/** The name events give a profile: its label, or its protocol and port. */
export function configEventLabel(record: ConfigRecord): string {
  return profileLabel(record) ?? `${record.protocol}:${record.port}`;
}
