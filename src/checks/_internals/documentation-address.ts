/**
 * Addresses reserved for documentation (RFC 5737: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), which no real
 * service hands out and SDKs' fixture sanitizers write in place of real ones (the real service's Go SDK turns every
 * IPv4 address into `192.0.2.0`): in a recording, such a value says nothing of what was sent or answered.
 * @module
 */

const documentationAddress = /(?:^|[^\d.])(?:192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}(?![\d.])/;

/** Does the value hold an IPv4 address of the RFC 5737 documentation ranges (alone or as `address:port`)? */
export function isDocumentationAddress(value: unknown): boolean {
  return typeof value === "string" && documentationAddress.test(value);
}
