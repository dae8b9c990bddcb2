/**
 * Which spec operation a request URL hits: API operations relative to the base URL's path, login-server
 * operations (those with their own server URL) relative to the auth URL.
 * @module
 */
import { BoundedMemo } from "../core/bounded-memo.ts";
import type { ApiSpec, OperationMatch } from "../spec/types.ts";
import type { TargetInfo } from "./suite-api.ts";

/** The operationId a request hits, or undefined (an unknown path, a method the path lacks, another origin). */
export function operationMatcher(
  spec: ApiSpec,
  target: TargetInfo,
): (method: string, url: string) => string | undefined {
  const match = operationMatchOf(spec, target);
  return (method, url) => match(method, url)?.operation.operationId;
}

/** The operation a request hits with its typed path parameters, or undefined. */
export function operationMatchOf(
  spec: ApiSpec,
  target: TargetInfo,
): (method: string, url: string) => OperationMatch | undefined {
  const basePath = new URL(target.baseUrl).pathname.replace(/\/$/, "");
  const authPath = new URL(target.authUrl).pathname.replace(/\/$/, "");
  const apiOrigin = new URL(target.baseUrl).origin;
  const authOrigin = new URL(target.authUrl).origin;
  // Runs ask about the same URLs again and again (a list, its pages, a polled resource): remember the answers,
  // bounded so a campaign of distinct URLs cannot grow it.
  const answers = new BoundedMemo<string, OperationMatch | undefined>(4096);
  return (method, url) => answers.get(`${method} ${url}`, () => match(method, url));

  function match(method: string, url: string): OperationMatch | undefined {
    const parsed = new URL(url);
    const verb = method.toUpperCase() === "HEAD" ? "GET" : method;
    if (
      parsed.origin === apiOrigin &&
      (parsed.pathname === basePath || parsed.pathname.startsWith(`${basePath}/`))
    ) {
      const match = spec.operations.match(verb, parsed.pathname.slice(basePath.length) || "/");
      if (match && match.operation.serverUrl === undefined) return match;
    }
    if (parsed.origin === authOrigin && parsed.pathname.startsWith(authPath)) {
      const match = spec.operations.match(verb, parsed.pathname.slice(authPath.length) || "/");
      if (match && match.operation.serverUrl !== undefined) return match;
    }
    return undefined;
  }
}
