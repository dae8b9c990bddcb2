/**
 * Which server each operation is on. The document's `servers` are the API's; an operation (or path item) may
 * declare its own. Its own server makes it another service's operation (the OAuth login server's) only when it
 * is another place: a server equal to one of the API's is the API (large descriptions repeat the API's URL on
 * every operation), and one under it (`https://api.example/v4/beta` under `https://api.example/v4`) is the API
 * with a longer path.
 * @module
 * @internal
 */
import { isObject } from "./pointer.ts";
import type { ServerInfo, SpecDialect } from "./types.ts";

/** The document-level servers, with their variables' defaults (Swagger 2.0: scheme, host and basePath). */
export function documentServers(document: unknown, dialect: SpecDialect): ServerInfo[] {
  const root = isObject(document) ? document : {};
  if (dialect === "swagger-2.0") {
    if (typeof root.host !== "string" && typeof root.basePath !== "string") return [];
    const scheme =
      Array.isArray(root.schemes) && typeof root.schemes[0] === "string" ? root.schemes[0] : "https";
    const basePath = typeof root.basePath === "string" ? root.basePath : "";
    const url = typeof root.host === "string" ? `${scheme}://${root.host}${basePath}` : basePath;
    return [{ url, variables: {} }];
  }
  return serverList(root.servers);
}

/** Where an operation is: on the API (with a path prefix when its own server lies under the API's) or elsewhere. */
export type OperationPlace =
  | { readonly kind: "api"; readonly pathPrefix: string }
  | { readonly kind: "other"; readonly serverUrl: string };

/**
 * The operation's place, from its own `servers` (the operation's win over the path item's) and the API's.
 * Without servers of its own it is the API's; with its own in a document that declares none, it is elsewhere
 * (nothing says it is the API).
 */
export function operationPlace(
  operation: Readonly<Record<string, unknown>>,
  pathItem: Readonly<Record<string, unknown>>,
  apiServers: readonly ServerInfo[],
): OperationPlace {
  const own = serverList(operation.servers)[0] ?? serverList(pathItem.servers)[0];
  if (own === undefined) return { kind: "api", pathPrefix: "" };
  const ownUrl = resolvedUrl(own);
  for (const api of apiServers) {
    const prefix = pathUnder(ownUrl, resolvedUrl(api));
    if (prefix !== undefined) return { kind: "api", pathPrefix: prefix };
  }
  return { kind: "other", serverUrl: own.url };
}

/** A server URL with its variables replaced by their defaults, without a trailing slash. */
export function resolvedUrl(server: ServerInfo): string {
  const url = server.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => server.variables[name] ?? whole);
  return url.replace(/\/+$/, "");
}

/**
 * The path that `url` adds below `base` (`""` when equal), or undefined when it is not at or under it.
 * Origins compare case-insensitively; a relative URL (`/v4`) compares by path alone.
 */
export function pathUnder(url: string, base: string): string | undefined {
  const [urlOrigin, urlPath] = splitOrigin(url);
  const [baseOrigin, basePath] = splitOrigin(base);
  if (urlOrigin !== undefined && baseOrigin !== undefined && urlOrigin !== baseOrigin) return undefined;
  if (urlPath === basePath) return "";
  return urlPath.startsWith(`${basePath}/`) ? urlPath.slice(basePath.length) : undefined;
}

function splitOrigin(url: string): [origin: string | undefined, path: string] {
  const found = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/i.exec(url);
  if (!found) return [undefined, url.replace(/\/+$/, "")];
  return [(found[1] as string).toLowerCase(), (found[2] as string).replace(/\/+$/, "")];
}

function serverList(written: unknown): ServerInfo[] {
  if (!Array.isArray(written)) return [];
  return written.filter(isObject).flatMap((server) => {
    if (typeof server.url !== "string") return [];
    const variables: Record<string, string> = {};
    if (isObject(server.variables)) {
      for (const [name, variable] of Object.entries(server.variables)) {
        if (isObject(variable) && variable.default !== undefined) variables[name] = String(variable.default);
      }
    }
    return [{ url: server.url, variables }];
  });
}
