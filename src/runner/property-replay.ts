/** A `--property`/`--path` pair read as the one property a fuzz campaign replays (light: the CLI checks it while parsing). */
import { ConfigError } from "../core/errors.ts";
import type { PropertyReplay } from "./suite-api.ts";

/**
 * `<suite>/<case>/<name>` and fast-check's path as a {@link PropertyReplay}; a ConfigError for a text that is not
 * one, or a path that is not fast-check's (`3:0:1`).
 */
export function parsePropertyReplay(text: string, path: string | undefined): PropertyReplay {
  const match = /^([^/]+)\/([^/]+)\/(.+)$/s.exec(text);
  if (!match) throw new ConfigError(`--property must be <suite>/<case>/<property name>, got "${text}"`);
  if (path !== undefined && !/^\d+(:\d+)*$/.test(path))
    throw new ConfigError(`--path must be fast-check's path (numbers joined by ":"), got "${path}"`);
  return { suite: match[1]!, case: match[2]!, property: match[3]!, path };
}
