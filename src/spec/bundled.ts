/** Where the project's own description of the API lives: the default for the runner and the reference server. */
import { packagePath } from "../core/package-files.ts";

export const bundledSpecPath = packagePath("specs/cloud-api-v4.yaml");
