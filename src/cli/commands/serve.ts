/**
 * `conform serve`: the embedded reference implementation as a process, with what a person needs to try it at
 * once with curl. Stops cleanly on Ctrl-C or SIGTERM (exit 130 or 143, after closing sockets and timers), removing
 * the folder it wrote in the temp directory (the CA file, and the run config holding the demo login).
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../core/errors.ts";
import { type HandledSignal, signalExitCodes } from "../../core/exit-codes.ts";
import { runsFromBuild } from "../../core/package-files.ts";
import type { ReferenceServer } from "../../reference/server.ts";
import { defineCommand } from "../command-module.ts";
import { checkNumbers, listOption, plainNumber } from "../options.ts";

/**
 * The `conform run` command that works against this server as printed, every case of it: its token, CA file,
 * login server, the seeded user for the login flows (a config file: suite options have no flag) and its balancers'
 * data plane (on loopback, reached on their stand-ins).
 */
export function serveRunCommand(
  server: ReferenceServer,
  caFile: string | undefined,
  configFile: string,
): string {
  const authUrl = server.authUrl === new URL(server.baseUrl).origin ? "" : ` --auth-url ${server.authUrl}`;
  // The checkout runs conform through its npm script, a project that installed the package through npx.
  const conform = runsFromBuild ? "npx conform" : "npm run conform --";
  return `CONFORM_TOKEN=${server.token} ${conform} run --base-url ${server.baseUrl}${authUrl}${caFile ? ` --ca ${caFile}` : ""} --config ${configFile} --allow-writes --data-plane`;
}

/** The run's config file for this server: the seeded user, so the login flows run (readable by its owner only). */
export function writeServeRunConfig(server: ReferenceServer, dir: string): string {
  const file = join(dir, "run-config.json");
  const login = { username: server.user.username, password: server.user.password };
  writeFileSync(file, `${JSON.stringify({ "suite-options": { login } }, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/** The banner printed at start: URLs, token, login, and curl lines that work as printed. */
export function serveBanner(server: ReferenceServer, caFile: string | undefined, configFile: string): string {
  const trust = caFile ? `--cacert ${caFile} ` : "";
  return [
    "conform reference server (Cloud Infrastructure API v4, in memory)",
    ...(server.faults.length > 0 ? [`  FAULTS:     ${server.faults.join(", ")}  (deliberately wrong)`] : []),
    `  base URL:   ${server.baseUrl}`,
    `  auth URL:   ${server.authUrl}  (login page: ${server.authUrl}/oauth/authorize?client_id=...)`,
    `  token:      ${server.token}  (personal access token, scope *)`,
    `  login:      ${server.user.username} / ${server.user.password}`,
    ...(caFile ? [`  CA file:    ${caFile}  (self-signed for this run)`] : []),
    "",
    "Try it:",
    `  curl ${trust}${server.baseUrl}/regions`,
    `  curl ${trust}-H "Authorization: Bearer ${server.token}" ${server.baseUrl}/nodebalancers`,
    "",
    "Sandbox network (loopback stand-ins of the addresses the API shows):",
    "  a node's private 192.168.X.Y is 127.168.X.Y: listen there on the node's port to bring it up",
    "  a load balancer's 198.18.X.Y is 127.18.X.Y: each profile listens there on its port (below 1024: 20000 higher)",
    "  and forwards to its up nodes; e.g. balancer ipv4 198.18.7.1, profile port 80:  curl http://127.18.7.1:20080/",
    "",
    "Run the suites against it (in another terminal):",
    `  ${serveRunCommand(server, caFile, configFile)}`,
    "",
    "Ctrl-C stops it.",
    "",
  ].join("\n");
}

function waitForSignal(): Promise<HandledSignal> {
  return new Promise((resolve) => {
    const stop = (signal: HandledSignal) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

export const serveCommand = defineCommand({
  command: "serve",
  describe: "Start the embedded reference implementation of the API on loopback",
  builder: (yargs) =>
    yargs
      .option("port", { coerce: plainNumber, default: 0, describe: "Port to listen on (0: any free port)" })
      .option("host", {
        type: "string",
        default: "127.0.0.1",
        describe: "Loopback address to bind (127.x.x.x or ::1)",
      })
      .option("http", { type: "boolean", default: false, describe: "Serve plain HTTP instead of HTTPS" })
      .option("token", {
        type: "string",
        describe:
          "Fix the ready personal access token: at least 8 characters, no spaces (default: 64 random hex characters)",
      })
      .option("time-scale", {
        coerce: plainNumber,
        default: 1,
        describe: "Multiply the server's delays (boot, health-check interval): 0.01 makes them 100x faster",
      })
      .option("fault", {
        type: "string",
        array: true,
        describe:
          "Enable named faults (comma-separated or repeated) to see what the suites catch; see `conform faults`",
      })
      .check((args) => checkNumbers(args, ["port", "time-scale"]))
      .example("$0 serve --http --port 8080", "Plain HTTP on a fixed port")
      .example("$0 serve --fault filter-or-as-and,pages-off-by-one", "A deliberately wrong server")
      .example("$0 serve --time-scale 0.05", "Instances boot and nodes change health 20x faster"),
  handler: async (args) => {
    if (args.token !== undefined && !/^\S{8,}$/.test(args.token)) {
      throw new ConfigError("--token must be at least 8 characters without spaces");
    }
    const { createReferenceServer } = await import("../../reference/server.ts");
    // Listening before anything is made: a signal from here on ends the server and removes its files.
    const stopped = waitForSignal();
    const server = await createReferenceServer({
      port: args.port,
      host: args.host,
      http: args.http,
      token: args.token,
      timeScale: args["time-scale"],
      faults: listOption(args.fault),
    });
    const dir = mkdtempSync(join(tmpdir(), "conform-serve-"));
    try {
      let caFile: string | undefined;
      if (server.certificatePem) {
        caFile = join(dir, "ca.pem");
        writeFileSync(caFile, server.certificatePem);
      }
      process.stdout.write(serveBanner(server, caFile, writeServeRunConfig(server, dir)));
      return signalExitCodes[await stopped];
    } finally {
      // First, before the sockets close: the config holds the demo login.
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  },
});
