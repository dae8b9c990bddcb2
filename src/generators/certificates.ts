/**
 * TLS material for the HTTPS workflow (workflow 6), made fresh per run with @peculiar/x509 on Node's WebCrypto:
 * a self-signed certificate with its private key, a certificate whose subject is blank, and a key that belongs
 * to no certificate. Nothing is written to disk; keys are PKCS#8 PEM, certificates PEM, both with real line
 * breaks (JSON encodes them as the two characters `\n` on the wire, as the description writes them).
 * @module
 */
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { toPem } from "../core/self-signed.ts";

export interface TlsPair {
  /** PEM certificate. */
  readonly cert: string;
  /** PEM PKCS#8 private key of the certificate. */
  readonly key: string;
}

export type KeyKind = "ec" | "rsa";

export interface TlsPairConstraints {
  /** Default `ec` (P-256: fast to make); `rsa` is 2048-bit. */
  readonly kind?: KeyKind;
  /**
   * The subject (and issuer) distinguished name, e.g. `CN=www.example.com, O=Example, C=US`; the empty string
   * makes a certificate with a blank subject. Default `CN=conform.example, O=conform, C=US`.
   */
  readonly subject?: string;
  /** Validity in days from now (default 30). */
  readonly days?: number;
}

const algorithms = {
  ec: { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" },
  rsa: {
    name: "RSASSA-PKCS1-v1_5",
    hash: "SHA-256",
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  },
} as const;

type KeyPair = webcrypto.CryptoKeyPair;

async function keyPair(kind: KeyKind): Promise<KeyPair> {
  return (await webcrypto.subtle.generateKey(algorithms[kind], true, ["sign", "verify"])) as KeyPair;
}

async function exportKey(keys: KeyPair): Promise<string> {
  return toPem(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY");
}

/** A self-signed certificate and its private key. */
export async function makeTlsPair(constraints: TlsPairConstraints = {}): Promise<TlsPair> {
  const kind = constraints.kind ?? "ec";
  const keys = await keyPair(kind);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: `01${Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString("hex")}`,
    name: constraints.subject ?? "CN=conform.example, O=conform, C=US",
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + (constraints.days ?? 30) * 24 * 3600_000),
    signingAlgorithm: algorithms[kind],
    keys,
  });
  return { cert: certificate.toString("pem"), key: await exportKey(keys) };
}

/** A fresh private key that belongs to no certificate. */
export async function makeStrayKey(kind: KeyKind = "ec"): Promise<string> {
  return exportKey(await keyPair(kind));
}

/** The base64 body of a PEM block, without armour or line breaks: what an echo of it would contain. */
export function pemBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\\n|\s/g, "");
}
