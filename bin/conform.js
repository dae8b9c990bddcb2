#!/usr/bin/env node
// Runs the CLI from source: Node 24 strips TypeScript types natively, so there is no build step.
import { main } from "../src/cli/main.ts";

process.exitCode = await main(process.argv.slice(2));
