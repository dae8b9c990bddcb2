/**
 * TLS material for tests of HTTPS configuration profiles, made fresh with @peculiar/x509 (as the reference
 * server's own certificate is, `src/reference/tls.ts`): a valid self-signed certificate with its key (RSA or
 * EC), a certificate whose subject is blank, and keys that do not belong to a certificate.
 */
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

export interface TlsPair {
  /** PEM certificate with real line breaks. */
  readonly cert: string;
  /** PEM PKCS#8 private key with real line breaks. */
  readonly key: string;
}

export type KeyKind = "rsa" | "ec";

type KeyPair = webcrypto.CryptoKeyPair;

const algorithms = {
  ec: { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" },
  rsa: {
    name: "RSASSA-PKCS1-v1_5",
    hash: "SHA-256",
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  },
} as const;

function toPem(der: ArrayBuffer, label: string): string {
  const lines =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

async function keyPair(kind: KeyKind): Promise<KeyPair> {
  return (await webcrypto.subtle.generateKey(algorithms[kind], true, ["sign", "verify"])) as KeyPair;
}

async function exportKey(keys: KeyPair): Promise<string> {
  return toPem(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY");
}

/**
 * A self-signed certificate and its key. `subject` is a distinguished name such as
 * `CN=www.example.com, O=Example, C=US`; the empty string makes a certificate with a blank subject.
 */
export async function makeTlsPair(
  options: { kind?: KeyKind; subject?: string; days?: number } = {},
): Promise<TlsPair> {
  const kind = options.kind ?? "ec";
  const keys = await keyPair(kind);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: `01${Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString("hex")}`,
    name: options.subject ?? "CN=www.example.com, O=Example, C=US",
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + (options.days ?? 30) * 24 * 3600_000),
    signingAlgorithm: algorithms[kind],
    keys,
  });
  return { cert: certificate.toString("pem"), key: await exportKey(keys) };
}

/** A fresh private key that belongs to no certificate. */
export async function makeStrayKey(kind: KeyKind = "ec"): Promise<string> {
  return exportKey(await keyPair(kind));
}

/** PEM as many JSON clients send it: the line breaks written as the two characters `\n`. */
export function escapeLineBreaks(pem: string): string {
  return pem.replace(/\n/g, "\\n");
}
