/** The toolkit's own version, from package.json (reports record it). */
import { packageManifest } from "../core/package-files.ts";

export const toolVersion: string = packageManifest.version;
