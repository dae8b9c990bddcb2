#!/usr/bin/env node
// The `conform` command. An installed package runs its build (`dist/`: Node strips no types under node_modules,
// and the package ships no TypeScript sources); the checkout runs its sources, so what runs is what was edited.
// The guard runs first, in plain JavaScript, so an older Node says what it needs instead of failing on a syntax.
import { existsSync, readFileSync } from "node:fs";
import { callerFolder, nodeVersionProblem } from "./node-guard.js";
import { holdSignals, holdsSignal, releaseHeldSignal, reportingCommands } from "./signal-hold.js";

// Read first: a wrapper (npm, npx) that ends while conform loads must still be seen to end (src/cli/parent-watch.ts).
const startedBy = process.ppid;
const problem = nodeVersionProblem(process.version);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(2);
}
const args = process.argv.slice(2);
// Answered before any module of conform loads: a version check is a start-up cost every CI job pays.
if (args.length === 1 && args[0] === "--version") {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${manifest.version}\n`);
} else {
  // A signal while conform loads is not lost: the run's handlers act on it, and its reports are written.
  if (reportingCommands.includes(args[0])) holdSignals();
  const folder = callerFolder(process.env);
  if (folder) process.chdir(folder);
  const sources = new URL("../src/cli/main.ts", import.meta.url);
  const entry = existsSync(sources) ? sources : new URL("../dist/src/cli/main.js", import.meta.url);
  const { endWithParent, main } = await import(entry.href);
  // A signal held reached conform first: the wrapper's end that follows it is no second signal (parent-watch.ts).
  if (!holdsSignal()) endWithParent(startedBy);
  process.exitCode = await main(args);
  releaseHeldSignal();
}
