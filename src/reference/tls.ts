/**
 * The reference server's own certificate: a fresh self-signed key pair per start, so a fresh machine serves
 * HTTPS with nothing to install. The toolkit trusts it by passing `certificatePem` as the client's CA.
 * @module
 */
import { type SelfSigned, selfSignedCertificate } from "../core/self-signed.ts";

export type ServerCertificate = SelfSigned;

/** A certificate for the loopback names the server answers on (127.0.0.1, localhost, its host), valid for a day. */
export function createServerCertificate(host = "127.0.0.1"): Promise<ServerCertificate> {
  return selfSignedCertificate("conform reference server", host);
}
