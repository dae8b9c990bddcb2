import { describe, expect, it } from "vitest";
import {
  collectFormSecrets,
  collectSecrets,
  holdsSecretKeys,
  redactedPlaceholder,
  redactForm,
  redactHeaders,
  redactJson,
  redactText,
  redactUrl,
  SecretValues,
  scanJson,
  secretsInText,
} from "../../src/core/redact.ts";

describe("redaction", () => {
  it.each([
    [
      "root_pass",
      { root_pass: "hunter2-very-secret", label: "web" },
      { root_pass: redactedPlaceholder, label: "web" },
    ],
    [
      "ssl_key nested in a list",
      { configs: [{ ssl_key: "-----BEGIN KEY", port: 443 }] },
      { configs: [{ ssl_key: redactedPlaceholder, port: 443 }] },
    ],
    [
      "token responses",
      { access_token: "a".repeat(64), refresh_token: "b".repeat(64), expires_in: 7200 },
      { access_token: redactedPlaceholder, refresh_token: redactedPlaceholder, expires_in: 7200 },
    ],
    ["client secrets", { id: "abc", secret: "c".repeat(64) }, { id: "abc", secret: redactedPlaceholder }],
    ["the service's own placeholder stays", { ssl_key: "<REDACTED>" }, { ssl_key: "<REDACTED>" }],
    [
      "an error's code stays: code is secret only as OAuth's form field and URL parameter",
      { errors: [{ reason: "Not found", code: "not_found" }], region: { code: "us-east" } },
      { errors: [{ reason: "Not found", code: "not_found" }], region: { code: "us-east" } },
    ],
    [
      "non-secret keys stay",
      { label: "token-like-label", tags: ["secret"] },
      { label: "token-like-label", tags: ["secret"] },
    ],
  ])("JSON: %s", (_name, input, expected) => {
    expect(redactJson(input)).toEqual(expected);
  });

  it.each([
    [{ Authorization: "Bearer abcdefgh12345678" }, { authorization: `Bearer ${redactedPlaceholder}` }],
    [{ authorization: "opaque" }, { authorization: redactedPlaceholder }],
    [{ Cookie: "session=1" }, { cookie: redactedPlaceholder }],
    [
      { Location: "https://app.example/cb#access_token=abcdefgh&state=x" },
      { location: `https://app.example/cb#access_token=${encodeURIComponent(redactedPlaceholder)}&state=x` },
    ],
    [{ "X-Filter": '{"label":"x"}' }, { "x-filter": '{"label":"x"}' }],
    [
      { "set-cookie": "session=1", etag: "x" },
      { "set-cookie": redactedPlaceholder, etag: "x" },
    ],
    [
      { "proxy-authorization": "Basic dXNlcjpwYXNz" },
      { "proxy-authorization": `Basic ${redactedPlaceholder}` },
    ],
    [
      { "content-type": "application/json", "x-ratelimit-remaining": "9" },
      { "content-type": "application/json", "x-ratelimit-remaining": "9" },
    ],
  ])("headers: %o", (input, expected) => {
    const out = redactHeaders(input);
    expect(out).toEqual(expected);
  });

  it("redacts every request's Authorization, the same value again and values of other schemes alike", () => {
    for (const [value, expected] of [
      ["Bearer abcdefgh12345678", `Bearer ${redactedPlaceholder}`],
      ["Bearer abcdefgh12345678", `Bearer ${redactedPlaceholder}`],
      ["Basic dXNlcjpwYXNzd29yZA==", `Basic ${redactedPlaceholder}`],
      ["abcdefgh12345678", redactedPlaceholder],
    ] as const)
      expect(redactHeaders({ Authorization: value, accept: "x" })).toEqual({
        authorization: expected,
        accept: "x",
      });
  });

  it("gives headers that need nothing back as they are, and never changes its input", () => {
    const clean = { "content-type": "application/json", etag: "x" };
    expect(redactHeaders(clean)).toBe(clean);
    const secret = { authorization: "Bearer abcdefgh12345678", accept: "application/json" };
    expect(redactHeaders(secret)).not.toBe(secret);
    expect(secret.authorization).toBe("Bearer abcdefgh12345678");
  });

  it("redacts secret form fields and URL parameters, keeping the rest", () => {
    expect(redactForm("client_id=x&client_secret=s3cr3t&code=c0de")).toBe(
      `client_id=x&client_secret=${encodeURIComponent(redactedPlaceholder)}&code=${encodeURIComponent(redactedPlaceholder)}`,
    );
    expect(redactUrl("https://h/cb?code=abc&state=1")).not.toContain("abc");
    expect(redactUrl("https://h/v4/regions")).toBe("https://h/v4/regions");
    expect(redactUrl("https://h/v4/regions?page=2")).toBe("https://h/v4/regions?page=2");
    // An encoded key name is still a secret key.
    expect(redactUrl("https://h/cb?%74oken=abcdefgh")).not.toContain("abcdefgh");
    expect(redactUrl("https://h/cb#ACCESS_TOKEN=abcdefgh")).not.toContain("abcdefgh");
  });

  it("scrubs known secret values anywhere in a text, and learns them from bodies", () => {
    const secrets = new SecretValues();
    collectSecrets({ data: [{ token: "f".repeat(64) }], password: "short" }, secrets);
    secrets.add("tiny");
    expect(secrets.size).toBe(1);
    expect(secrets.scrub(`curl -H 'Authorization: Bearer ${"f".repeat(64)}'`)).toBe(
      `curl -H 'Authorization: Bearer ${redactedPlaceholder}'`,
    );
  });

  it("learns OAuth's code from a form, not from a JSON body", () => {
    const secrets = new SecretValues();
    collectFormSecrets(`client_id=x&code=${"c".repeat(40)}&state=${"s".repeat(20)}`, secrets);
    collectSecrets({ errors: [{ reason: "Invalid code", code: "e".repeat(20) }] }, secrets);
    expect(secrets.size).toBe(1);
    expect(secrets.scrub(`code ${"c".repeat(40)} state ${"s".repeat(20)}`)).toBe(
      `code ${redactedPlaceholder} state ${"s".repeat(20)}`,
    );
  });

  it.each([
    ['{"access_token": "x"}', true],
    ['{"data":[{"SECRET":"x"}]}', true],
    // A key written with escapes is the key it spells: a scan of the text would miss it.
    ['{"data":[{"id":1,"\\u0074oken":"x"}]}', true],
    ['{"a":{"b":[[{"Client_Secret":null}]]}}', true],
    // Keys are first ruled out by length and initial: every secret key, in any case, still gets through.
    ...[
      "authorization",
      "ACCESS_TOKEN",
      "Refresh_Token",
      "client_secret",
      "Secret",
      "ROOT_PASS",
      "passWord",
      "SSL_key",
      "tOKEN",
    ].map((key): [string, boolean] => [`{"data":[{"region":"x","${key}":"x"}]}`, true]),
    // Same length and initial as a secret key, not one.
    ['{"data":[{"tilde":1,"passport":2,"sslkey_":3,"ssl_kez":4}]}', false],
    ['{"label":"token holder","tags":["password"]}', false],
    ['{"errors":[{"reason":"Not found","code":"x"}]}', false],
    ['{"description":"{\\"token\\": \\"x\\"}"}', false],
    ['{"data":[{"id":1,"label":"a"}],"page":1}', false],
    ["[]", false],
    ['"token"', false],
    ["null", false],
  ])("%s holds secret keys: %s", (text, expected) => {
    expect(holdsSecretKeys(JSON.parse(text))).toBe(expected);
  });

  it.each([
    ["a text shorter than every secret", "abcdefg", false],
    ["the shortest secret itself", "12345678", true],
    ["the shortest secret inside a text", "x 12345678 y", true],
    ["the long secret inside a text", `Bearer ${"z".repeat(40)}`, true],
    ["a long text holding no secret", "y".repeat(100), false],
  ])("finds and scrubs known secrets by length first: %s", (_name, text, found) => {
    const secrets = new SecretValues();
    secrets.add("z".repeat(40));
    secrets.add("12345678");
    secrets.add("1234567");
    expect(secrets.appearsIn(text)).toBe(found);
    expect(secrets.scrub(text) !== text).toBe(found);
  });

  it("says whether a known secret appears in a text", () => {
    const secrets = new SecretValues();
    secrets.add("abcdefgh12345678");
    expect(secrets.appearsIn("x abcdefgh12345678 y")).toBe(true);
    expect(secrets.appearsIn("nothing here")).toBe(false);
  });

  it("scrubs a header map only when a secret is in it, returning the same map otherwise", () => {
    const secrets = new SecretValues();
    secrets.add("abcdefgh12345678");
    const clean = { "content-type": "application/json" };
    expect(secrets.scrubRecord(clean)).toBe(clean);
    expect(secrets.scrubRecord({ "x-echo": "Bearer abcdefgh12345678" })).toEqual({
      "x-echo": `Bearer ${redactedPlaceholder}`,
    });
  });
});

/** A value nested `depth` deep (`{"a":{"a":…}}`), with `leaf` at the bottom. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

describe("walks of parsed JSON, without recursion", () => {
  const token = "f1".repeat(32);
  const deep = nested(100_000, { token });

  it("scans a value 100,000 deep: too deep to record, and its secret key when walked whole", () => {
    expect(scanJson(deep).tooDeep).toBe(true);
    expect(scanJson(deep, Number.POSITIVE_INFINITY)).toEqual({ secretKeys: true, tooDeep: false });
    expect(scanJson(nested(10, { token }))).toEqual({ secretKeys: true, tooDeep: false });
    expect(scanJson(nested(10, { label: "x" }))).toEqual({ secretKeys: false, tooDeep: false });
  });

  it("redacts, collects and scrubs a value 100,000 deep", () => {
    let redacted = redactJson(deep) as { a?: unknown; token?: unknown };
    while (redacted.a) redacted = redacted.a as typeof redacted;
    expect(redacted).toEqual({ token: redactedPlaceholder });
    const secrets = new SecretValues();
    collectSecrets(deep, secrets);
    expect(secrets.appearsIn(token)).toBe(true);
    let scrubbed = secrets.scrubDeep(nested(100_000, { note: `was ${token}` })) as {
      a?: unknown;
      note?: unknown;
    };
    while (scrubbed.a) scrubbed = scrubbed.a as typeof scrubbed;
    expect(scrubbed).toEqual({ note: `was ${redactedPlaceholder}` });
  });
});

describe("secrets in text of any kind", () => {
  const value = "v4lue-0f-a-secret";
  it.each([
    ["JSON", `{"id":1,"token":"${value}"}`],
    ["JSON cut in the value", `{"id":1,"client_secret":"${value}`],
    ["a form", `a=1&access_token=${value}&b=2`],
    ["YAML", `id: 1\nrefresh_token: '${value}'\n`],
    ["a header line", `Authorization: Bearer ${value}`],
    ["an upper-case key", `TOKEN=${value}`],
  ])("finds the value next to a secret-named key in %s", (_kind, text) => {
    expect(secretsInText(text)).toEqual([value]);
  });

  it.each([
    ["a key that only ends like one", `{"not_a_token_id":"${value}"}`],
    ["OAuth's code (an error's code in free text)", `code: ${value}`],
    ["no secret key", "the token was refused"],
  ])("finds nothing in %s", (_kind, text) => {
    expect(secretsInText(text)).toEqual([]);
  });

  it("redacts a form whatever its label and scrubs every value it learns, there and later", () => {
    const secrets = new SecretValues();
    expect(redactText(`access_token=${value}&token_type=bearer`, secrets)).toBe(
      `access_token=${encodeURIComponent(redactedPlaceholder)}&token_type=bearer`,
    );
    expect(redactText(`secret: ${value}`, secrets)).toBe(`secret: ${redactedPlaceholder}`);
    expect(redactText(`echo ${value}`, secrets)).toBe(`echo ${redactedPlaceholder}`);
  });
});
