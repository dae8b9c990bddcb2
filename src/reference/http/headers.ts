/**
 * Headers on every answer of the reference server, as the description lists them (CORS, security, caching,
 * versioning). Computed once per server: the hot path only copies them.
 * @module
 */

export const corsAllowedMethods = "HEAD, GET, OPTIONS, POST, PUT, DELETE";
export const corsAllowedHeaders = "Authorization, Origin, X-Requested-With, Content-Type, Accept, X-Filter";

export function commonHeaders(specVersion: string): Readonly<Record<string, string>> {
  return Object.freeze({
    "X-Spec-Version": specVersion,
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Allow-Methods": corsAllowedMethods,
    "Access-Control-Allow-Headers": corsAllowedHeaders,
    "Access-Control-Expose-Headers": "X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Status",
    Vary: "Authorization, X-Filter",
    "Strict-Transport-Security": "max-age=31536000",
    "Cache-Control": "private, max-age=0, s-maxage=0, no-cache, no-store",
    "Content-Security-Policy": "default-src 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
  });
}
