/** The one redaction policy: what a URL, a header map or a body becomes in a record, and what each teaches. */
import { describe, expect, it } from "vitest";
import { redactedPlaceholder, SecretValues } from "../../src/core/redact.ts";
import { recordBody, recordHeaders, recordUrl, redactMultipart } from "../../src/core/redaction-policy.ts";

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString("base64")}`;

describe("recordHeaders: credentials learnt", () => {
  it.each([
    ["a bearer token", { authorization: "Bearer tok3n-abcdef" }, "tok3n-abcdef", true],
    ["a Basic password", { authorization: basic("user:s3cret-pass") }, "s3cret-pass", true],
    [
      "a Basic password of one short word (a suite's wrong credentials)",
      { authorization: basic("user:password") },
      "password",
      false,
    ],
    ["a proxy credential", { "proxy-authorization": "Bearer pr0xy-credential" }, "pr0xy-credential", true],
    ["a cookie", { cookie: "theme=dark; session=c00kie-value-1" }, "c00kie-value-1", true],
    [
      "a set-cookie",
      { "set-cookie": "session=s3t-cookie-value; Path=/; HttpOnly" },
      "s3t-cookie-value",
      true,
    ],
  ])("%s", (_name, headers, value, learnt) => {
    const secrets = new SecretValues();
    const recorded = recordHeaders(headers, secrets);
    expect(JSON.stringify(recorded)).not.toContain(value);
    expect(secrets.scrub(`echoed: ${value}`)).toBe(
      learnt ? `echoed: ${redactedPlaceholder}` : `echoed: ${value}`,
    );
  });
});

describe("recordUrl", () => {
  it.each([
    ["userinfo with a password", "https://user:pa55-word-x@api.test/v4/profile", "pa55-word-x"],
    ["a token as the user name", "https://t0ken-as-user-name@api.test/v4/profile", "t0ken-as-user-name"],
    ["a secret parameter", "https://api.test/v4/profile?access_token=acc3ss-token-1", "acc3ss-token-1"],
  ])("redacts and learns %s", (_name, url, secret) => {
    const secrets = new SecretValues();
    const recorded = recordUrl(url, secrets);
    expect(recorded).not.toContain(secret);
    expect(recorded).toMatch(/^https:\/\/(\[REDACTED\]@)?api\.test\/v4\/profile/);
    expect(secrets.scrub(secret)).toBe(redactedPlaceholder);
  });

  it("keeps a URL without userinfo or parameters as it is", () => {
    expect(recordUrl("https://api.test/v4/profile", new SecretValues())).toBe("https://api.test/v4/profile");
  });
});

describe("redactMultipart", () => {
  const part = (name: string, value: string) =>
    `--b7\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  it("replaces and learns the fields named as secrets, keeps the others", () => {
    const secrets = new SecretValues();
    const body = `${part("client_id", "client-1")}${part("client_secret", "cl1ent-secret")}${part("code", "oauth-c0de-1")}--b7--\r\n`;
    const recorded = redactMultipart(body, secrets);
    expect(recorded).toContain("client-1");
    expect(recorded).not.toContain("cl1ent-secret");
    expect(recorded).not.toContain("oauth-c0de-1");
    expect(secrets.size).toBe(2);
  });

  it("through recordBody, a multipart body with a secret field keeps no secret", () => {
    const body = `${part("password", "multi-pa55word")}--b7--\r\n`;
    expect(recordBody(body, undefined, new SecretValues()).text).not.toContain("multi-pa55word");
  });
});
