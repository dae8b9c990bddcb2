/**
 * The one redaction policy of every path that records an exchange: the runner's client (`runner/http-client.ts`),
 * and the recorder of traffic conform did not make (`traffic/record.ts`, for `proxy` and `verify`). What a URL, a
 * header map or a body becomes in the record, and which secrets each teaches the run on the way (so they are
 * scrubbed wherever they appear later): credentials of Authorization and Proxy-Authorization (a Basic password
 * too) and cookies, a URL's userinfo and secret parameters, JSON values under secret keys, form and multipart fields
 * named as secrets (OAuth's `code` and `client_secret` among them), values next to secret names in any text.
 * The primitives are in `redact.ts`.
 * @module
 */
import {
  collectFormSecrets,
  collectSecrets,
  isSecretParameter,
  redactedPlaceholder,
  redactHeaders,
  redactJson,
  redactText,
  redactUrl,
  type SecretValues,
  scanJson,
} from "./redact.ts";

/** The credential header value each run's secrets learnt last: a run sends the same one on nearly every request. */
const lastLearnt = new WeakMap<SecretValues, string>();

/** Headers whose values teach the run a secret (lower case). */
const credentialHeaders = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/**
 * Whether a credential read from a header is worth scrubbing everywhere: a word of letters only shorter than 16
 * (`password`, a suite's deliberately wrong `Basic user:password`) would blank out ordinary text in every report.
 */
const credentialLike = (value: string) => value.length >= 16 || /[^A-Za-z]/.test(value);

/** The secrets one credential header carries: the credentials after the scheme, a Basic password, cookie values. */
function learnHeader(name: string, value: string, secrets: SecretValues): void {
  const learn = (secret: string) => {
    if (credentialLike(secret)) secrets.add(secret);
  };
  if (name === "cookie" || name === "set-cookie") {
    // `a=1; b=2` (Cookie) or `a=1; Path=/; HttpOnly, b=2` (Set-Cookie's attributes are no secret, and too short).
    for (const pair of value.split(/[;,]/)) learn(pair.slice(pair.indexOf("=") + 1).trim());
    return;
  }
  const match = /^\s*(\S+)\s+(\S.*)$/.exec(value);
  const credentials = (match ? match[2]! : value).trim();
  learn(credentials);
  if (match && match[1]!.toLowerCase() === "basic") {
    const decoded = Buffer.from(credentials, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon >= 0) learn(decoded.slice(colon + 1));
  }
}

/**
 * Whether a header a user adds to every request (`-H`) carries a secret by its name: a gateway key, a token, a
 * session, a signature. Its value is never recorded (`recordHeaders`' `secretNames`) and joins the run's secrets.
 */
export function looksSecretHeaderName(name: string): boolean {
  return /key|token|secret|passw|auth|session|signature|credential|cookie/i.test(name);
}

/**
 * The recorded form of a header map: names lower-cased, credential headers redacted, known secrets scrubbed; the
 * credentials seen (a request's Authorization, a target's Set-Cookie) join the run's secrets first, so a target that
 * echoes them in a body or an error is scrubbed too. `secretNames` (lower case): headers the user added whose
 * values are replaced whatever their length (the run's secrets scrub only values of 8 characters or more).
 */
export function recordHeaders(
  headers: Readonly<Record<string, string>>,
  secrets: SecretValues,
  secretNames?: ReadonlySet<string>,
): Readonly<Record<string, string>> {
  // for-in and the lower-case names first: every request of a run passes here, with the same Authorization.
  for (const name in headers) {
    const lower = credentialHeaders.has(name) ? name : name.toLowerCase();
    if (!credentialHeaders.has(lower)) continue;
    const value = headers[name] as string;
    if (lastLearnt.get(secrets) === value) continue;
    learnHeader(lower, value, secrets);
    lastLearnt.set(secrets, value);
  }
  const recorded = secrets.scrubRecord(redactHeaders(headers));
  if (secretNames === undefined || secretNames.size === 0) return recorded;
  let copy: Record<string, string> | undefined;
  for (const name of secretNames)
    if (recorded[name] !== undefined) {
      copy ??= { ...recorded };
      copy[name] = redactedPlaceholder;
    }
  return copy ?? recorded;
}

/** Learns the secrets of a URL: its userinfo, its secret query and fragment parameters. */
function learnUrl(url: string, secrets: SecretValues): void {
  const parsed = URL.parse(url);
  if (!parsed) return;
  if (parsed.username) secrets.add(decodeURIComponent(parsed.username));
  if (parsed.password) secrets.add(decodeURIComponent(parsed.password));
  if (parsed.search) collectFormSecrets(parsed.search.slice(1), secrets);
  if (parsed.hash) collectFormSecrets(parsed.hash.slice(1), secrets);
}

/** The recorded form of a URL: userinfo and secret parameters redacted, known secrets scrubbed. */
export function recordUrl(url: string, secrets: SecretValues): string {
  // Every request passes here: `redactUrl` gives the URL back unparsed when it holds nothing secret (most do), and
  // only a URL it changed has something to learn.
  const redacted = redactUrl(url);
  if (redacted !== url) learnUrl(url, secrets);
  return secrets.scrub(redacted);
}

/**
 * A multipart body's fields named as secrets (`name="client_secret"`), whatever the boundary: each value joins the
 * run's secrets and is replaced. Parts are found by their Content-Disposition line; the value is what follows the
 * part's blank line up to the next boundary.
 */
const multipartField =
  /(Content-Disposition:[^\r\n]*?\bname="([^"\r\n]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?\r?\n)([\s\S]*?)(?=\r?\n--)/gi;

export function redactMultipart(text: string, secrets: SecretValues): string {
  if (!/content-disposition:/i.test(text)) return text;
  return text.replace(multipartField, (whole, head: string, name: string, value: string) => {
    if (!isSecretParameter(name)) return whole;
    secrets.add(value.trim());
    return `${head}${redactedPlaceholder}`;
  });
}

/**
 * The recorded form of a body (an answer's or a request's), whatever its Content-Type; `parsed` is its JSON value,
 * or undefined when it is not JSON. Most hold no secret: a cheap scan says so and they are kept as they came (the
 * recorded JSON is then the parsed value itself: recording is the hot path of every run). A body under a secret key
 * teaches the run that secret and is redacted by key; one that is not JSON (or nests too deep to record as JSON) is
 * redacted as text (multipart fields, form parameters, values next to secret names); known secrets are scrubbed.
 */
export function recordBody(
  text: string,
  parsed: unknown,
  secrets: SecretValues,
): { text: string; json: unknown } {
  if (parsed === undefined)
    return { text: redactText(redactMultipart(text, secrets), secrets), json: undefined };
  const scan = scanJson(parsed);
  if (scan.tooDeep) {
    // Secrets are learnt from the whole value (no recursion), but it is kept as text: reporters could not
    // serialise it.
    collectSecrets(parsed, secrets);
    return { text: redactText(text, secrets), json: undefined };
  }
  if (scan.secretKeys) {
    // Secrets the target hands out (new tokens, client secrets) are scrubbed wherever they appear later.
    collectSecrets(parsed, secrets);
    const redacted = secrets.scrubDeep(redactJson(parsed));
    return { text: JSON.stringify(redacted), json: redacted };
  }
  if (secrets.appearsIn(text)) return { text: secrets.scrub(text), json: secrets.scrubDeep(parsed) };
  return { text, json: parsed };
}
