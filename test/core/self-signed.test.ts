import { createPrivateKey, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { selfSignedCertificate, toPem } from "../../src/core/self-signed.ts";

describe("selfSignedCertificate", () => {
  it.each([
    ["127.0.0.1", "DNS:localhost, IP Address:127.0.0.1"],
    ["127.0.0.7", "DNS:localhost, IP Address:127.0.0.1, IP Address:127.0.0.7"],
    ["::1", "DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1"],
    ["localhost", "DNS:localhost, IP Address:127.0.0.1"],
  ])("for %s names %s, signed by its own key, valid now", async (host, names) => {
    const own = await selfSignedCertificate("conform test", host);
    const certificate = new X509Certificate(own.certificatePem);
    expect(certificate.subjectAltName).toBe(names);
    expect(certificate.subject).toContain("CN=conform test");
    expect(certificate.checkPrivateKey(createPrivateKey(own.privateKeyPem))).toBe(true);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.now());
  });

  it("toPem wraps base64 at 64 characters between its labels", () => {
    const pem = toPem(new Uint8Array(100).fill(7).buffer, "THING");
    const lines = pem.trimEnd().split("\n");
    expect(lines[0]).toBe("-----BEGIN THING-----");
    expect(lines.at(-1)).toBe("-----END THING-----");
    // 100 bytes are 136 base64 characters.
    expect(lines.slice(1, -1).map((line) => line.length)).toEqual([64, 64, 8]);
    expect(Buffer.from(lines.slice(1, -1).join(""), "base64")).toEqual(Buffer.alloc(100, 7));
  });
});
