/**
 * What to say when a target's TLS certificate is not trusted: Node's own message suggests `--use-system-ca`, a
 * Node flag no conform user should need; conform's answer is `--ca FILE` (the CA file `conform serve` prints) or
 * `--insecure`.
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

/** The reason to print for a transport failure: Node's words without its `--use-system-ca` hint, plus ours. */
export function transportReason(error: unknown): string {
  const message = ((error as Error)?.message ?? String(error)).replace(
    /;?\s*if the root CA[^;]*--use-system-ca\.?/i,
    "",
  );
  if (!isUntrustedCertificate(error)) return message;
  return `${message} (its TLS certificate is not trusted: give --ca FILE with the CA that signed it, such as the CA file \`conform serve\` prints, or --insecure)`;
}
