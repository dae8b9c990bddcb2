import type { CommandModule } from "yargs";
import { cleanupCommand } from "./cleanup.ts";
import { diffCommand } from "./diff.ts";
import { faultsCommand } from "./faults.ts";
import { fuzzCommand } from "./fuzz.ts";
import { mergeReportsCommand } from "./merge-reports.ts";
import { proxyCommand } from "./proxy.ts";
import { runCommand } from "./run.ts";
import { serveCommand } from "./serve.ts";
import { specCommand } from "./spec.ts";
import { verifyCommand } from "./verify.ts";

/** Every command of the CLI, one module per file; the handler of each only parses and calls a library. */
// biome-ignore lint/suspicious/noExplicitAny: yargs command modules differ in their argument types
export const commands: CommandModule<any, any>[] = [
  runCommand,
  serveCommand,
  specCommand,
  cleanupCommand,
  fuzzCommand,
  faultsCommand,
  mergeReportsCommand,
  diffCommand,
  verifyCommand,
  proxyCommand,
];
