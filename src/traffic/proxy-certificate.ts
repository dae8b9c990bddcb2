/**
 * The proxy's own certificate for its clients (`conform proxy --https FILE`): a fresh self-signed key pair per
 * start, for the loopback names it answers on (127.0.0.1, localhost, and its `--host`), valid for a day; the client
 * trusts the certificate written to FILE. A twin of the reference server's (`src/reference/tls.ts`), which the
 * proxy may not import: a judge shares no code with what it judges.
 * @module
 */
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

function toPem(der: ArrayBuffer, label: string): string {
  const lines =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

export async function proxyCertificate(
  host: string,
): Promise<{ readonly cert: string; readonly key: string }> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const now = Date.now();
  const names: { type: "dns" | "ip"; value: string }[] = [
    { type: "dns", value: "localhost" },
    { type: "ip", value: "127.0.0.1" },
  ];
  if (host !== "127.0.0.1" && host !== "localhost") names.push({ type: "ip", value: host });
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
      .toString("hex")
      .replace(/^/, "01"),
    name: "CN=conform proxy, O=conform",
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
  return { cert: certificate.toString("pem"), key: toPem(pkcs8, "PRIVATE KEY") };
}
