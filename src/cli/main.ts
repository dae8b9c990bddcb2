/**
 * The `conform` command line: parse, call the library, map the outcome to an exit code.
 * @module
 */
import yargs from "yargs";
import { ConfigError, ToolkitError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { terminalSafe } from "../reporters/_internals/text.ts";
import { exitCodeOf } from "./command-module.ts";
import { commands } from "./commands/index.ts";
import { configErrorWithMessage } from "./options.ts";
import { toolVersion } from "./version.ts";

export { endWithParent } from "./parent-watch.ts";

/** A usage mistake yargs found: one line and a pointer to --help, no stack. */
class UsageError extends ConfigError {}

/** Runs the CLI with the given arguments and resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode: number = ExitCode.ok;
  // Answered here rather than by yargs, which would end the process: main() resolves to an exit code.
  if (argv.length === 1 && argv[0] === "--version") {
    process.stdout.write(`${toolVersion}\n`);
    return ExitCode.ok;
  }
  const cli = yargs([...argv])
    .scriptName("conform")
    .usage("$0 <command> [options]\n\nConformance and contract testing for the Cloud Infrastructure API v4.")
    .strict()
    // Numeric options read their text themselves (`plainNumber` in options.ts): yargs would take `1e3` or `0x10`.
    .parserConfiguration({ "parse-numbers": false })
    .demandCommand(1, "Name a command; `conform --help` lists them.")
    .recommendCommands()
    .help()
    .alias("h", "help")
    .version("version", "Show conform's version", toolVersion)
    .wrap(Math.min(110, process.stdout.columns || 110))
    .fail((message, error) => {
      // yargs calls this for its own parse and validation errors (YError, e.g. an unreadable config file) and
      // for errors thrown by handlers and checks: those are rethrown and reported below.
      // Throwing stops yargs at the first problem (it would otherwise go on validating half-parsed arguments).
      if (error && error.name !== "YError") throw error;
      // A config file's error, which yargs re-threw as a YError: told as the ConfigError it was, with its code.
      const fromConfig = configErrorWithMessage(message ?? error?.message ?? "");
      if (fromConfig) throw fromConfig;
      throw new UsageError(message ?? error?.message ?? "invalid arguments");
    });
  for (const command of commands) cli.command(command);
  try {
    exitCode = exitCodeOf(await cli.parseAsync()) ?? exitCode;
  } catch (error) {
    // A message may quote a file or a target (a report's field, a path): no control character of theirs reaches
    // the terminal.
    if (error instanceof UsageError) {
      process.stderr.write(`conform: ${terminalSafe(error.message)}\nRun \`conform --help\` for usage.\n`);
    } else if (ToolkitError.is(error)) {
      process.stderr.write(`conform: ${terminalSafe(error.message)} [${error.code}]\n`);
    } else {
      process.stderr.write(
        `conform: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
    exitCode = ExitCode.toolkitError;
  }
  return exitCode;
}
