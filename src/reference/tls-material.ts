/**
 * Certificate and private-key checks for HTTPS configuration profiles, with `node:crypto` only: the PEM text
 * may arrive with its line breaks written as the two characters `\n` (cloud-api-v4.md), which are decoded
 * first. What the profile keeps from a certificate is its subject common name and SHA-256 fingerprint.
 *
 * Rules (the description's and facts.md's, plus documented choices):
 * - a certificate that `X509Certificate` cannot parse is refused on `ssl_cert`;
 * - a certificate whose subject is blank (no attributes at all, or every attribute value empty or spaces) is
 *   refused on `ssl_cert`: the description's "subject details left blank";
 * - a key that `createPrivateKey` cannot read (not PEM, encrypted, a public key) is refused on `ssl_key`;
 * - a key that does not belong to the certificate (`checkPrivateKey` false, or a key of another algorithm) is
 *   refused on `ssl_key`;
 * - validity dates and the chain are not checked (the real service accepts self-signed certificates).
 * Only the first certificate of a chain is read. Both problems are reported together when both exist.
 * @module
 */
import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import { type ApiErrorItem, fieldError } from "./http/reply.ts";

export interface CertificateFacts {
  /** The subject's first CN, "" when it has none. */
  readonly commonName: string;
  /** SHA-256 fingerprint, colon-separated upper-case hex pairs. */
  readonly fingerprint: string;
}

export type TlsPairCheck =
  | {
      readonly ok: true;
      readonly certificate: string;
      readonly privateKey: string;
      readonly facts: CertificateFacts;
    }
  | { readonly ok: false; readonly errors: ApiErrorItem[] };

/** Turns the two characters `\n` (as JSON clients often send PEM) into real line breaks. */
export function decodePem(text: string): string {
  return text.replace(/\\r\\n|\\n/g, "\n");
}

interface SubjectAttribute {
  readonly type: string;
  readonly value: string;
}

/**
 * Node writes a subject as one `TYPE=value` per line, several attributes of one RDN joined by ` + `, with
 * `\` escaping special characters; an empty subject is undefined.
 */
export function subjectAttributes(subject: string | undefined): SubjectAttribute[] {
  if (!subject) return [];
  return subject
    .split("\n")
    .flatMap((line) => line.split(/(?<!\\) \+ /))
    .filter((part) => part.trim() !== "")
    .map((part) => {
      const equals = part.indexOf("=");
      const type = equals < 0 ? part : part.slice(0, equals);
      const raw = equals < 0 ? "" : part.slice(equals + 1);
      return { type: type.trim(), value: raw.replace(/\\(.)/g, "$1").trim() };
    });
}

function readCertificate(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

function readPrivateKey(pem: string): KeyObject | undefined {
  try {
    return createPrivateKey(pem);
  } catch {
    return undefined;
  }
}

function keyMatches(certificate: X509Certificate, key: KeyObject): boolean {
  try {
    return certificate.checkPrivateKey(key);
  } catch {
    return false;
  }
}

/** Checks a certificate and its private key as sent (possibly with `\n` escapes); every problem reported. */
export function checkTlsPair(sentCertificate: string, sentKey: string): TlsPairCheck {
  const certificatePem = decodePem(sentCertificate);
  const keyPem = decodePem(sentKey);
  const errors: ApiErrorItem[] = [];
  const certificate = readCertificate(certificatePem);
  let attributes: SubjectAttribute[] = [];
  if (!certificate) {
    errors.push(fieldError("ssl_cert", "ssl_cert is not a valid PEM-encoded X.509 certificate"));
  } else {
    attributes = subjectAttributes(certificate.subject);
    if (attributes.every((attribute) => attribute.value === "")) {
      errors.push(
        fieldError("ssl_cert", "ssl_cert has a blank subject: fill in its details (common name, country...)"),
      );
    }
  }
  const key = readPrivateKey(keyPem);
  if (!key) {
    errors.push(fieldError("ssl_key", "ssl_key is not a valid unencrypted PEM private key"));
  } else if (certificate && !keyMatches(certificate, key)) {
    errors.push(fieldError("ssl_key", "ssl_key does not match the certificate in ssl_cert"));
  }
  if (errors.length > 0 || !certificate) return { ok: false, errors };
  const commonName = attributes.find((attribute) => attribute.type.toUpperCase() === "CN")?.value ?? "";
  return {
    ok: true,
    certificate: certificatePem,
    privateKey: keyPem,
    facts: { commonName, fingerprint: certificate.fingerprint256 },
  };
}
