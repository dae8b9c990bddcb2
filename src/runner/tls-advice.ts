/**
 * What to say when TLS fails: Node's own message for an untrusted certificate suggests `--use-system-ca`, a
 * Node flag no conform user should need; conform's answer is `--ca FILE` (the CA file `conform serve` prints) or
 * `--insecure`. An https URL on a port that answers plain HTTP gets OpenSSL's raw "wrong version number" (over two
 * lines); conform says the target does not speak TLS there. Every reason is one line.
 * @module
 */

const untrustedCodes = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Whether this error (or one of its causes) is a certificate the client does not trust. */
export function isUntrustedCertificate(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && untrustedCodes.has(code)) return true;
    if (
      typeof message === "string" &&
      /self[- ]signed certificate|unable to verify|--use-system-ca/i.test(message)
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether this error (or one of its causes) is a TLS handshake answered by something that does not speak TLS. */
export function isNotTls(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === "ERR_SSL_WRONG_VERSION_NUMBER") return true;
    if (typeof message === "string" && /SSL routines:[^\n]*wrong version number/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The reason to print for a transport failure, in one line: Node's words without its `--use-system-ca` hint, plus ours. */
export function transportReason(error: unknown): string {
  if (isNotTls(error))
    return "the target does not speak TLS there (is it plain HTTP? then use http:// in the URL)";
  const message = ((error as Error)?.message ?? String(error))
    .replace(/;?\s*if the root CA[^;]*--use-system-ca\.?/i, "")
    .trim()
    .replace(/\s*\n\s*/g, " ");
  if (!isUntrustedCertificate(error)) return message;
  return `${message} (its TLS certificate is not trusted: give --ca FILE with the CA that signed it, such as the CA file \`conform serve\` prints, or --insecure)`;
}
