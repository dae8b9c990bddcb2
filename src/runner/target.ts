/**
 * Resolves the run's target: a base URL the user gave (with its token and TLS trust), or, with none, the embedded
 * reference server started on loopback for the run (HTTPS with its own certificate, trusted automatically; its
 * own token, exempt from rate limits in practice; its seeded login user; delays shrunk).
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import { inputLimits, readInputFile } from "../core/input-file.ts";
import { describedRateLimits, scaleRateWindows, uniformRateLimits } from "../reference/rate-limit.ts";
import { createReferenceServer } from "../reference/server.ts";
import type { ApiSpec } from "../spec/types.ts";
import type { RunConfig } from "./config.ts";
import type { ResolvedTarget } from "./engine.ts";

export interface StartedTarget {
  readonly target: ResolvedTarget;
  close(): Promise<void>;
}

/** Time scale of the embedded server during a run: instances boot and nodes change health 50x faster. */
export const embeddedTimeScale = 0.02;

/**
 * Rate limits of the embedded server during a run, by class of caller:
 * - the run's own token (the server's ready token): limits so high they never bind. The toolkit's own token must
 *   not pace a full run, where every suite shares it;
 * - tokens that suites mint: the description's limits, windows multiplied by the time scale (400 and 200 per
 *   1.2 s, instance creation 10 per second), so the rate-limits suite drives past a real limit in a second;
 * - public endpoints, counted by client address: generous, as every suite calls them from the one loopback address.
 */
export const embeddedRateLimits = Object.freeze({
  rateLimits: scaleRateWindows(describedRateLimits, embeddedTimeScale),
  ownTokenRateLimits: uniformRateLimits(1_000_000_000, 60_000),
  addressRateLimits: uniformRateLimits(1_000_000, 60_000),
});

/** `suiteOptions.login` when it names a username and a password. */
function configuredLogin(config: RunConfig): { username: string; password: string } | undefined {
  const login = config.suiteOptions.login as { username?: unknown; password?: unknown } | undefined;
  return typeof login?.username === "string" && typeof login.password === "string"
    ? { username: login.username, password: login.password }
    : undefined;
}

export async function startTarget(config: RunConfig, spec: ApiSpec): Promise<StartedTarget> {
  if (config.baseUrl === undefined) {
    // A login given in the config becomes the seeded user, so suites and the login server agree either way.
    const user = configuredLogin(config);
    const server = await createReferenceServer({
      spec,
      timeScale: embeddedTimeScale,
      ...embeddedRateLimits,
      ...(user ? { user } : {}),
      faults: config.faults,
    });
    return {
      target: {
        baseUrl: server.baseUrl,
        authUrl: server.authUrl,
        embedded: true,
        writesAllowed: true,
        token: server.token,
        ca: server.certificatePem,
        login: { username: server.user.username, password: server.user.password },
      },
      close: () => server.close(),
    };
  }
  let base: URL;
  try {
    base = new URL(config.baseUrl);
  } catch {
    throw new ConfigError(`--base-url ${config.baseUrl} is not a URL`);
  }
  if (base.protocol !== "https:" && base.protocol !== "http:") {
    throw new ConfigError(`--base-url must be http(s), got ${base.protocol}`);
  }
  let ca: string | undefined;
  if (config.caFile) {
    try {
      ca = readInputFile(config.caFile, inputLimits.pem);
    } catch (error) {
      throw new ConfigError(`--ca ${config.caFile} ${(error as Error).message}`);
    }
  }
  return {
    target: {
      baseUrl: base.toString().replace(/\/$/, ""),
      authUrl: (config.authUrl ?? base.origin).replace(/\/$/, ""),
      embedded: false,
      writesAllowed: config.allowWrites,
      token: config.token,
      ca,
    },
    close: async () => {},
  };
}
