/**
 * The login server's HTML login form: small, accessible (every input has a label, the error is announced,
 * the document has a language and a title), driveable by a headless browser (`#username`, `#password`, the
 * submit button `#login`), with the authorization request carried in hidden inputs. Every interpolated value
 * is HTML-escaped. The page's only style sheet is inline and allowed by its hash in the page's own
 * Content-Security-Policy, which keeps `default-src 'none'` otherwise (no script, no frames, no base URI).
 * `form-action` is left unset on purpose: browsers apply it to the redirect that follows the submission,
 * and that redirect goes to the client's own origin.
 * @module
 */
import { createHash } from "node:crypto";

const escapes: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (character) => escapes[character]!);
}

const style = [
  "body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}",
  "main{max-width:24rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 4px #0003}",
  "h1{font-size:1.25rem;margin:0 0 1rem}",
  "label{display:block;margin:1rem 0 .25rem;font-weight:600}",
  "input{box-sizing:border-box;width:100%;padding:.5rem;font:inherit}",
  "button{margin-top:1.5rem;width:100%;padding:.6rem;font:inherit;font-weight:600;cursor:pointer}",
  ".error{color:#a00;font-weight:600}",
  ".scopes{font-family:ui-monospace,monospace;word-break:break-all}",
].join("");

const styleHash = createHash("sha256").update(style, "utf8").digest("base64");

/** Headers of the login page (they override the API's `default-src 'none'` policy for this one answer). */
export const loginPageHeaders: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; frame-ancestors 'none'`,
  "Referrer-Policy": "no-referrer",
});

export interface LoginPageInput {
  /** The client's label, shown to the user. */
  readonly clientLabel: string;
  /** Hidden fields that travel with the login, in order (client_id, response_type, scope, redirect_uri, state). */
  readonly hidden: readonly (readonly [name: string, value: string])[];
  /** The requested scopes, shown to the user. */
  readonly scopes: string;
  /** Form action, `/oauth/authorize`. */
  readonly action: string;
  /** A message shown above the form (e.g. after a refused login). */
  readonly error?: string;
  /** Prefills the username input. */
  readonly username?: string;
}

export function renderLoginPage(input: LoginPageInput): string {
  const hidden = input.hidden
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  const error = input.error
    ? `<p class="error" id="error" role="alert">${escapeHtml(input.error)}</p>\n`
    : "";
  const describedBy = input.error ? ' aria-describedby="error"' : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Log in</title>
<style>${style}</style>
</head>
<body>
<main>
<h1>Log in to authorize ${escapeHtml(input.clientLabel)}</h1>
<p>${escapeHtml(input.clientLabel)} asks for access with the scopes <span class="scopes">${escapeHtml(input.scopes)}</span>.</p>
${error}<form method="post" action="${escapeHtml(input.action)}"${describedBy}>
${hidden}
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${escapeHtml(input.username ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" id="login">Log in</button>
</form>
</main>
</body>
</html>
`;
}
