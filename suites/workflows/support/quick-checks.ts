/**
 * What both workflow suites share of their test design: profile settings under which health transitions are quick
 * on every target.
 * @module
 */

/** The profile settings that make health transitions quick everywhere (check every 2 s, down after 2 misses). */
export const quickChecks = {
  check: "connection",
  check_interval: 2,
  check_timeout: 1,
  check_attempts: 2,
} as const;
