/**
 * Child process of section 1: in a fresh process, loads one description and compiles every validator once, then
 * prints one JSON line: its peak RSS (maxRSS, the kernel's high-water mark), its RSS before loading, and the
 * cold times. Usage: `node bench/spec-memory-child.ts <description>`.
 * @module
 */
import { type ColdSample, loadOnce } from "./spec-loading.ts";

const path = process.argv[2];
if (!path) {
  process.stderr.write("usage: spec-memory-child.ts <description>\n");
  process.exit(2);
}
const baselineRssBytes = process.memoryUsage.rss();
const cold = await loadOnce(path);
const result: ColdSample = {
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  baselineRssBytes,
  coldLoadMs: cold.loadMs,
  coldAllValidatorsMs: cold.firstMs + cold.allMs,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
