/** The toolkit's own version, from package.json (reports record it). */
import { readFileSync } from "node:fs";

export const toolVersion: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
