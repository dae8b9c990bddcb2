/**
 * What to say when a request gets no (whole) answer, in people's words, one line each. A bound of ours that fired
 * says which and the option that sets it: undici's `UND_ERR_BODY_TIMEOUT` is a body silent for `--timeout`, its
 * `UND_ERR_HEADERS_TIMEOUT` no headers within it (the code stays the exchange's, for searching). A connection the
 * target closed or refused says so. When TLS fails: Node's own message for an untrusted certificate suggests
 * `--use-system-ca`, a Node flag no conform user should need; conform's answer is `--ca FILE` (the CA file
 * `conform serve` prints) or `--insecure`. An https URL on a port that answers plain HTTP gets OpenSSL's raw
 * "wrong version number" (over two lines); conform says the target does not speak TLS there.
 * @module
 */

/** The client's bounds a transport failure may come from (`RunConfig`'s). */
export interface TransportBounds {
  /** `--timeout`: to connect, to the headers, and the longest silence while a body is read. */
  readonly timeoutMs: number;
  /** `--request-deadline`: from the headers to the body's last byte. */
  readonly requestDeadlineMs: number;
}

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

/**
 * The reason to print for a transport failure, in one line: which bound fired and its option (given `bounds`), what
 * the connection did, or Node's words without its `--use-system-ca` hint, plus ours.
 */
export function transportReason(error: unknown, bounds?: TransportBounds): string {
  const said = bounds ? boundReason(error, bounds) : undefined;
  if (said) return said;
  const connection = connectionReason(error);
  if (connection) return connection;
  if (isNotTls(error))
    return "the target does not speak TLS there (is it plain HTTP? then use http:// in the URL)";
  const message = ((error as Error)?.message ?? String(error))
    .replace(/;?\s*if the root CA[^;]*--use-system-ca\.?/i, "")
    .trim()
    .replace(/\s*\n\s*/g, " ");
  if (!isUntrustedCertificate(error)) return message;
  return `${message} (its TLS certificate is not trusted: give --ca FILE with the CA that signed it, such as the CA file \`conform serve\` prints, or --insecure)`;
}

/** A bound of the client that fired, named with its option; undefined for any other failure. */
function boundReason(error: unknown, bounds: TransportBounds): string | undefined {
  const timeout = `${seconds(bounds.timeoutMs)} (--timeout)`;
  switch (codeOf(error)) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return `could not connect within ${timeout}`;
    case "UND_ERR_HEADERS_TIMEOUT":
      return `no answer: its headers did not come within ${timeout}`;
    case "UND_ERR_BODY_TIMEOUT":
      return `the answer's body stalled: nothing came for ${seconds(bounds.timeoutMs)} (--timeout: the longest silence while reading a body; --request-deadline, ${seconds(bounds.requestDeadlineMs)}, bounds the whole body); reading stopped`;
  }
  // An AbortSignal.timeout over the whole request (headers, then body).
  if ((error as Error)?.name === "TimeoutError")
    return `no whole answer within ${seconds(bounds.timeoutMs + bounds.requestDeadlineMs)} (--timeout for the headers plus --request-deadline for the body)`;
  return undefined;
}

/** What the connection did (closed, reset, refused, a host not found), in words; undefined for anything else. */
function connectionReason(error: unknown): string | undefined {
  const { message, address, port, hostname } = error as {
    message?: string;
    address?: string;
    port?: number;
    hostname?: string;
  };
  switch (codeOf(error)) {
    case "UND_ERR_SOCKET":
      return `the target closed the connection before its answer ended (${message ?? "socket error"})`;
    case "ECONNRESET":
      return "the target reset the connection before its answer ended";
    case "ECONNREFUSED":
      return `connection refused: nothing listens at ${address ?? "the target"}${port === undefined ? "" : `:${port}`}`;
    case "ENOTFOUND":
      return `${hostname ? `the host ${hostname}` : "the target's host"} is not found (DNS)`;
  }
  return undefined;
}

/** The code of this error or of its first cause that has one. */
function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
