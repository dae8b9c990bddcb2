/**
 * Resolves the run's target: a base URL the user gave (with its token and TLS trust), or, with none, the embedded
 * reference server started on loopback for the run (HTTPS with its own certificate, trusted automatically; its
 * own token; rate limits widened so a full run is not paced for minutes, and delays shrunk).
 * @module
 */
import { readFileSync } from "node:fs";
import { ConfigError } from "../core/errors.ts";
import { createReferenceServer } from "../reference/server.ts";
import type { ApiSpec } from "../spec/types.ts";
import type { RunConfig } from "./config.ts";
import type { ResolvedTarget } from "./engine.ts";

export interface StartedTarget {
  readonly target: ResolvedTarget;
  close(): Promise<void>;
}

/** Limits of the embedded server during a run: generous, so suites are not paced; suites that test limits shrink their own server. */
const embeddedRateLimits = {
  general: { limit: 1_000_000, windowMs: 60_000 },
  list: { limit: 1_000_000, windowMs: 60_000 },
  createInstance: { limit: 10_000, windowMs: 30_000 },
};

/** Time scale of the embedded server during a run: instances boot and nodes change health 50x faster. */
export const embeddedTimeScale = 0.02;

export async function startTarget(config: RunConfig, spec: ApiSpec): Promise<StartedTarget> {
  if (config.baseUrl === undefined) {
    const server = await createReferenceServer({
      spec,
      timeScale: embeddedTimeScale,
      rateLimits: embeddedRateLimits,
    });
    return {
      target: {
        baseUrl: server.baseUrl,
        authUrl: server.authUrl,
        embedded: true,
        token: server.token,
        ca: server.certificatePem,
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
      ca = readFileSync(config.caFile, "utf8");
    } catch (error) {
      throw new ConfigError(`--ca ${config.caFile} cannot be read: ${(error as Error).message}`);
    }
  }
  return {
    target: {
      baseUrl: base.toString().replace(/\/$/, ""),
      authUrl: (config.authUrl ?? base.origin).replace(/\/$/, ""),
      embedded: false,
      token: config.token,
      ca,
    },
    close: async () => {},
  };
}
