/**
 * `conform proxy --target URL`: a judging proxy on loopback for live clients (an SDK's tests, a CLI, curl). The
 * handler parses and calls `src/traffic/proxy.ts`; reports are written when it is stopped (Ctrl-C, SIGTERM), the
 * exit code is its verdict (1 when anything failed, 0 when what it judged passed, 130/143 when it judged nothing).
 * @module
 */
import type { Argv, CommandModule } from "yargs";
import { runProxy } from "../../traffic/proxy.ts";
import { checkNumbers, plainNumber } from "../options.ts";
import { runWithReporters } from "../run-with-reporters.ts";
import { type RunArgs, runOptions, toRunConfig } from "./run.ts";
import { notForTraffic } from "./verify.ts";

type ProxyArgs = RunArgs & { target: string; port: number; host: string; https?: string };

function builder(yargs: Argv) {
  let options = runOptions(yargs)
    .option("target", {
      type: "string",
      demandOption: true,
      describe: "Where to forward: the API's origin (the client's paths, /v4/... included, are kept)",
    })
    .option("port", {
      coerce: plainNumber,
      default: 8080,
      describe: "The port to listen on (0: any free port)",
    })
    .option("host", { type: "string", default: "127.0.0.1", describe: "The loopback address to listen on" })
    .option("https", {
      type: "string",
      describe: "Serve HTTPS with a certificate of its own, written to this file for clients to trust",
    });
  for (const name of notForTraffic) options = options.hide(name);
  return (
    options
      // The same rule table as every numeric option (`--port abc` is refused naming it).
      .check((args) => checkNumbers(args, ["port"]))
      .example(
        "$0 proxy --target https://127.0.0.1:8443 --ca server.pem --port 8080",
        "Point a client at http://127.0.0.1:8080/v4; Ctrl-C writes the reports",
      )
  );
}

export const proxyCommand: CommandModule<object, ProxyArgs> = {
  command: "proxy",
  describe: "Forward a live client's requests to a target and judge every exchange; reports on Ctrl-C",
  builder: builder as unknown as CommandModule<object, ProxyArgs>["builder"],
  handler: async (args) => {
    const config = toRunConfig(args);
    args.exitCode = await runWithReporters(config, (options) =>
      runProxy(config, {
        ...options,
        target: args.target,
        host: args.host,
        port: args.port,
        ...(args.https !== undefined ? { httpsCertFile: args.https } : {}),
        onListening: (url) =>
          process.stderr.write(
            `conform proxy: listening on ${url}, forwarding to ${args.target} (Ctrl-C to stop)\n`,
          ),
        onExchange: (judged) => {
          if (judged % 100 === 0) process.stderr.write(`conform proxy: ${judged} exchanges judged\n`);
        },
      }),
    );
  },
};
