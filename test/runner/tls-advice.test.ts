import { describe, expect, it } from "vitest";
import { transportReason } from "../../src/runner/tls-advice.ts";

/** An error as undici hands it over, optionally wrapping a cause. */
function failure(message: string, code?: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), code ? { code } : {});
}

const openSslWrongVersion =
  "40ED0C40C47F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:\n";

describe("transportReason", () => {
  it.each<[string, unknown, string | RegExp]>([
    [
      "an https URL on a plain-HTTP port (OpenSSL's code)",
      failure(openSslWrongVersion, "ERR_SSL_WRONG_VERSION_NUMBER"),
      "the target does not speak TLS there (is it plain HTTP? then use http:// in the URL)",
    ],
    [
      "the same, wrapped by the client without the code",
      failure("fetch failed", undefined, failure(openSslWrongVersion)),
      "the target does not speak TLS there (is it plain HTTP? then use http:// in the URL)",
    ],
    [
      "an untrusted certificate, without Node's --use-system-ca hint",
      failure(
        "self-signed certificate; if the root CA is installed locally, try running Node.js with --use-system-ca",
        "DEPTH_ZERO_SELF_SIGNED_CERT",
      ),
      /^self-signed certificate \(its TLS certificate is not trusted: give --ca FILE .* or --insecure\)$/,
    ],
    [
      "a refused connection, as it is",
      failure("connect ECONNREFUSED 127.0.0.1:9", "ECONNREFUSED"),
      "connect ECONNREFUSED 127.0.0.1:9",
    ],
    [
      "a message over several lines, on one line",
      failure("first line\n  second line\n"),
      "first line second line",
    ],
  ])("%s", (_name, error, reason) => {
    const said = transportReason(error);
    expect(said).not.toContain("\n");
    if (typeof reason === "string") expect(said).toBe(reason);
    else expect(said).toMatch(reason);
  });
});
