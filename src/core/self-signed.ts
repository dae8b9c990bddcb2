/**
 * A self-signed certificate for a loopback server of ours (the reference server, the judging proxy): a fresh P-256
 * key pair per start, for the names it answers on (localhost, 127.0.0.1 and its own address), valid for a day, so a
 * fresh machine serves HTTPS with nothing to install; clients trust the certificate itself. And PEM text of DER.
 * @module
 */
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import { isIP } from "node:net";
import * as x509 from "@peculiar/x509";

export interface SelfSigned {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

/** DER as PEM text, 64 characters a line. */
export function toPem(der: ArrayBuffer, label: string): string {
  const lines =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** A server certificate named `commonName` for localhost, 127.0.0.1 and `host` (when it is another IP address). */
export async function selfSignedCertificate(commonName: string, host = "127.0.0.1"): Promise<SelfSigned> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const now = Date.now();
  const names: { type: "dns" | "ip"; value: string }[] = [
    { type: "dns", value: "localhost" },
    { type: "ip", value: "127.0.0.1" },
  ];
  if (host !== "127.0.0.1" && isIP(host) !== 0) names.push({ type: "ip", value: host });
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: webcrypto
      .getRandomValues(new Uint8Array(8))
      .reduce((text, byte) => text + byte.toString(16).padStart(2, "0"), "01"),
    name: `CN=${commonName}, O=conform`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 24 * 3600_000),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.SubjectAlternativeNameExtension(names),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { certificatePem: certificate.toString("pem"), privateKeyPem: toPem(pkcs8, "PRIVATE KEY") };
}
