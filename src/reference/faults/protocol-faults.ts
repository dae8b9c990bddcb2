/** Faults of the protocol (auth, scopes, OAuth, rate limits, headers, versioning) area: one file each, listed here. */
import { acceptedScopesHeaderMissing } from "./accepted-scopes-header-missing.ts";
import { clientSecretShown } from "./client-secret-shown.ts";
import { contentTypeWrong } from "./content-type-wrong.ts";
import { corsMissing } from "./cors-missing.ts";
import { expiredTokenAccepted } from "./expired-token-accepted.ts";
import { expiresInWrong } from "./expires-in-wrong.ts";
import { hstsMissing } from "./hsts-missing.ts";
import { noTokenAnswers403 } from "./no-token-answers-403.ts";
import { profileTimezoneInTimes } from "./profile-timezone-in-times.ts";
import { publicClientRefreshToken } from "./public-client-refresh-token.ts";
import { rateLimitNotEnforced } from "./rate-limit-not-enforced.ts";
import { rateLimitRemainingFrozen } from "./rate-limit-remaining-frozen.ts";
import { readOnlyTokenWrites } from "./read-only-token-writes.ts";
import { refreshTokenReusable } from "./refresh-token-reusable.ts";
import { retryAfterMissing } from "./retry-after-missing.ts";
import { specVersionMissing } from "./spec-version-missing.ts";
import { specVersionWrong } from "./spec-version-wrong.ts";
import type { Fault } from "./types.ts";
import { varyMissing } from "./vary-missing.ts";

export const protocolFaults: readonly Fault[] = [
  readOnlyTokenWrites,
  acceptedScopesHeaderMissing,
  expiredTokenAccepted,
  refreshTokenReusable,
  publicClientRefreshToken,
  expiresInWrong,
  retryAfterMissing,
  rateLimitRemainingFrozen,
  rateLimitNotEnforced,
  specVersionMissing,
  specVersionWrong,
  profileTimezoneInTimes,
  contentTypeWrong,
  corsMissing,
  noTokenAnswers403,
  varyMissing,
  hstsMissing,
  clientSecretShown,
];
