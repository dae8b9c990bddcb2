/**
 * The spec loader's public surface: load a description, then use its operation index and validators.
 * @module
 */
export { loadSpec } from "./load.ts";
export { formatProblems, summarizeSpec } from "./summary.ts";
export type * from "./types.ts";
