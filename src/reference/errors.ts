/**
 * The API's own error bodies as named constants, with the real service's reason texts where facts.md gives
 * them (Prism's mocker/errors.ts habit): one place to read what the reference server says when it refuses.
 * @module
 */
import { type ApiErrorItem, errorReply, type Reply } from "./http/reply.ts";

export const reasons = Object.freeze({
  notFound: "Not found",
  invalidToken: "Invalid Token",
  forbidden: "Your OAuth token is not authorized to use this endpoint.",
  tooManyRequests: "Too many requests",
  unsupportedMediaType: (sent: string, accepted: readonly string[]) =>
    `Content-Type ${sent} is not accepted here; send ${accepted.join(" or ")}`,
  bodyTooLarge: "Request body is too large",
  internal: "Internal server error",
  cannotFilter: (field: string) => `Cannot filter on ${field}`,
});

export const notFound = (): Reply => errorReply(404, [{ reason: reasons.notFound }]);

/** 401 always tells the client its scopes are unknown (facts.md). */
export const invalidToken = (): Reply =>
  errorReply(401, [{ reason: reasons.invalidToken }], { "X-OAuth-Scopes": "unknown" });

export const forbidden = (): Reply => errorReply(403, [{ reason: reasons.forbidden }]);

export const tooManyRequests = (retryAfterSeconds: number): Reply =>
  errorReply(429, [{ reason: reasons.tooManyRequests }], { "Retry-After": String(retryAfterSeconds) });

export const payloadTooLarge = (limitBytes: number): Reply =>
  errorReply(413, [{ reason: `${reasons.bodyTooLarge} (limit ${limitBytes} bytes)` }]);

export const filterError = (reason: string): ApiErrorItem => ({ reason, field: "X-Filter" });
