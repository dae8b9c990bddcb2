/** Where the project's own description of the API lives: the default for the runner and the reference server. */
import { fileURLToPath } from "node:url";

export const bundledSpecPath = fileURLToPath(new URL("../../specs/cloud-api-v4.yaml", import.meta.url));
