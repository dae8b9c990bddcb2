/** The suite-side TLS material: each kind is what its name says, checked with node:crypto (not @peculiar/x509). */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeStrayKey, makeTlsPair, pemBody } from "../../src/generators/certificates.ts";

describe("TLS material for workflow 6", () => {
  it.each(["ec", "rsa"] as const)(
    "a %s pair: the key is the certificate's, the subject as asked",
    async (kind) => {
      const pair = await makeTlsPair({ kind, subject: "CN=www.example.com, O=Example, C=US" });
      const certificate = new X509Certificate(pair.cert);
      expect(certificate.checkPrivateKey(createPrivateKey(pair.key))).toBe(true);
      expect(certificate.subject.split("\n").sort()).toEqual(["C=US", "CN=www.example.com", "O=Example"]);
      expect(pair.key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    },
  );

  it("a blank subject is blank", async () => {
    const pair = await makeTlsPair({ subject: "" });
    expect(new X509Certificate(pair.cert).subject ?? "").toBe("");
  });

  it("a stray key belongs to no certificate made before it", async () => {
    const pair = await makeTlsPair();
    const stray = await makeStrayKey();
    expect(new X509Certificate(pair.cert).checkPrivateKey(createPrivateKey(stray))).toBe(false);
  });

  it("every pair is fresh", async () => {
    const [a, b] = await Promise.all([makeTlsPair(), makeTlsPair()]);
    expect(a.key).not.toBe(b.key);
    expect(a.cert).not.toBe(b.cert);
  });

  it("pemBody is the base64 inside the armour, whatever the line breaks", async () => {
    const { key } = await makeTlsPair();
    const body = pemBody(key);
    expect(body).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(pemBody(key.replace(/\n/g, "\\n"))).toBe(body);
    expect(Buffer.from(body, "base64").length).toBeGreaterThan(60);
  });
});
