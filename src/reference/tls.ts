/**
 * The reference server's own certificate: a fresh self-signed key pair per start, so a fresh machine serves
 * HTTPS with nothing to install. The toolkit trusts it by passing `certificatePem` as the client's CA.
 * @module
 */
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

export interface ServerCertificate {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

function toPem(der: ArrayBuffer, label: string): string {
  const base64 = Buffer.from(der).toString("base64");
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** A certificate for the loopback names the server answers on (127.0.0.1, ::1, localhost), valid for a day. */
export async function createServerCertificate(host = "127.0.0.1"): Promise<ServerCertificate> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const now = Date.now();
  const names = [{ type: "dns", value: "localhost" } as const, { type: "ip", value: "127.0.0.1" } as const];
  if (host !== "127.0.0.1" && /^[\d.]+$/.test(host)) names.push({ type: "ip", value: host } as never);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: webcrypto
      .getRandomValues(new Uint8Array(8))
      .reduce((s, b) => s + b.toString(16).padStart(2, "0"), "01"),
    name: "CN=conform reference server, O=conform",
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
