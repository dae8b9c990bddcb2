#!/usr/bin/env node
// Runs the CLI from source: Node 22.19+ strips TypeScript types natively, so there is no build step. The guard
// runs first, in plain JavaScript, so an older Node says what it needs instead of failing on the first type.
import { callerFolder, nodeVersionProblem } from "./node-guard.js";

const problem = nodeVersionProblem(process.version);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(2);
}
const folder = callerFolder(process.env);
if (folder) process.chdir(folder);
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
