/**
 * The proxy's own certificate for its clients (`conform proxy --https FILE`): a fresh self-signed key pair per
 * start, for the loopback names it answers on (127.0.0.1, localhost, and its `--host`), valid for a day; the client
 * trusts the certificate written to FILE.
 * @module
 */
import { selfSignedCertificate } from "../core/self-signed.ts";

export async function proxyCertificate(
  host: string,
): Promise<{ readonly cert: string; readonly key: string }> {
  const own = await selfSignedCertificate("conform proxy", host);
  return { cert: own.certificatePem, key: own.privateKeyPem };
}
