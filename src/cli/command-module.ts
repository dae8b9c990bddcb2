/**
 * One shape for every command of the CLI: the builder's options type the handler's arguments (no cast), and the
 * handler resolves to the exit code, which `main` reads back from the parsed arguments.
 * @module
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";

/** A command as written in `src/cli/commands/`: its usage, one line of help, its options and what it does. */
export interface CommandSpec<Options> {
  readonly command: string;
  readonly describe: string;
  readonly builder: (yargs: Argv) => Argv<Options>;
  /** Parses nothing more and calls a library; resolves to the process exit code. */
  readonly handler: (args: ArgumentsCamelCase<Options>) => Promise<number>;
}

/** The parsed arguments of a builder, as its handler receives them. */
export type ArgsOf<Builder extends (yargs: Argv) => Argv<unknown>> = ArgumentsCamelCase<
  Awaited<ReturnType<Builder>["argv"]>
>;

/** The yargs module of a command: its handler's exit code is kept on the arguments as `exitCode`. */
export function defineCommand<Options>(spec: CommandSpec<Options>): CommandModule<object, Options> {
  return {
    command: spec.command,
    describe: spec.describe,
    builder: spec.builder,
    handler: async (args) => {
      Object.assign(args, { exitCode: await spec.handler(args) });
    },
  };
}

/** The exit code a command's handler left on the parsed arguments, if it ran to the end. */
export function exitCodeOf(args: object): number | undefined {
  const code = (args as { exitCode?: unknown }).exitCode;
  return typeof code === "number" ? code : undefined;
}
