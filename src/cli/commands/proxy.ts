/**
 * `conform proxy --target URL`: a judging proxy on loopback for live clients (an SDK's tests, a CLI, curl). The
 * handler parses and calls `src/traffic/proxy.ts`; reports are written when it is stopped (Ctrl-C, SIGTERM,
 * `--max-time`) and, with `--report-every`, every N minutes as snapshots; the exit code is its verdict (1 when
 * anything failed, 0 when what it judged passed, 130/143 when a signal stopped it before it judged anything, 2 when
 * its time limit did).
 * @module
 */
import type { Argv } from "yargs";
import { defineCommand } from "../command-module.ts";
import { checkNumbers, plainNumber } from "../options.ts";
import { toRunConfig } from "../run-config.ts";
import { runOptions } from "../run-options.ts";
import { notForTraffic } from "./verify.ts";

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
    })
    .option("report-every", {
      coerce: plainNumber,
      describe:
        "Also write the reports every N minutes while it runs (from 0.005; fractions allowed: 0.5 is 30 s), as snapshots of what was judged so far (report.json: complete false, snapshot set); stopping writes the final ones",
    })
    .option("max-request-bytes", {
      coerce: plainNumber,
      describe:
        "The most of a request body kept to judge (default: --max-response-bytes); every byte is still forwarded",
    })
    .option("confirm", {
      type: "boolean",
      default: false,
      describe:
        "Let the proxy send its own read-only requests with the client's token to judge what it saw: read an item back after a write, fetch the unfiltered list behind a filtered one (a suite 'confirmations' in the reports); off: it sends nothing of its own",
    })
    .option("max-confirmations", {
      coerce: plainNumber,
      default: 100,
      describe: "With --confirm: the most requests of its own the proxy sends (GETs only)",
    })
    .option("max-time", {
      coerce: plainNumber,
      describe:
        "Stop after this many ms (default: none) and write the reports; the exit code is the verdict on what was judged (2 when nothing was)",
    });
  for (const name of notForTraffic) options = options.hide(name);
  return (
    options
      // The same rule table as every numeric option (`--port abc` is refused naming it).
      .check((args) => checkNumbers(args, ["port", "report-every", "max-request-bytes", "max-confirmations"]))
      .example(
        "$0 proxy --target https://127.0.0.1:8443 --ca server.pem --port 8080",
        "Point a client at http://127.0.0.1:8080/v4; Ctrl-C writes the reports",
      )
      .example(
        "$0 proxy --target https://127.0.0.1:8443 --ca server.pem --report-every 10",
        "The same, and the reports so far every 10 minutes (a CI job can read reports/latest/report.json)",
      )
  );
}

export const proxyCommand = defineCommand({
  command: "proxy",
  describe:
    "Forward a live client's requests to a target and judge every exchange; reports on Ctrl-C (and every N minutes with --report-every)",
  builder,
  handler: async (args) => {
    const { runProxy } = await import("../../traffic/proxy.ts");
    const { runWithReporters } = await import("../run-with-reporters.ts");
    const { exchangeLogListener } = await import("../../reporters/exchange-log.ts");
    const config = await toRunConfig(args);
    return await runWithReporters(
      config,
      (options) =>
        runProxy(config, {
          ...options,
          target: args.target,
          host: args.host,
          port: args.port,
          ...(args.https !== undefined ? { httpsCertFile: args.https } : {}),
          ...(args["report-every"] !== undefined ? { reportEveryMs: args["report-every"] * 60_000 } : {}),
          ...(args["max-request-bytes"] !== undefined ? { maxRequestBytes: args["max-request-bytes"] } : {}),
          ...(args.confirm ? { confirm: { max: args["max-confirmations"] } } : {}),
          onListening: (url) =>
            process.stderr.write(
              `conform proxy: listening on ${url}, forwarding to ${args.target} (Ctrl-C to stop)\n`,
            ),
        }),
      {
        traffic: true,
        // A line per judged exchange (a count a minute under CI): the user sees the proxy is getting traffic.
        listeners: [exchangeLogListener(process.env)],
      },
    );
  },
});
