/**
 * TLS material for reference-server tests: the suites' own generator (src/generators/certificates.ts), plus the
 * PEM form many JSON clients send.
 */
export { type KeyKind, makeStrayKey, makeTlsPair, type TlsPair } from "../../src/generators/certificates.ts";

/** PEM as many JSON clients send it: the line breaks written as the two characters `\n`. */
export function escapeLineBreaks(pem: string): string {
  return pem.replace(/\n/g, "\\n");
}
