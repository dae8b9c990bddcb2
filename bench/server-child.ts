/**
 * A child process that hosts the embedded reference server for sections 2 and 3, so the server and the client
 * under test each have their own core and event loop (as with `conform run --base-url` against a real target).
 * HTTPS on loopback, rate limits so wide they never bind (the bench measures speed, not pacing); for section 6,
 * `rateWindowScale` gives every caller the description's limits instead, windows multiplied by it, with the
 * server's delays shrunk as in a run (`embeddedTimeScale`).
 *
 * Protocol over the IPC channel: the child sends `{type: "ready", baseUrl, token, certificatePem}` once
 * listening; on `{type: "usage"}` it answers `{type: "usage", cpuUs, rssBytes}`; on `{type: "close"}`, or when
 * the channel closes (the bench exited or crashed), it stops.
 * Start it with {@link startServerChild}.
 * @module
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describedRateLimits, scaleRateWindows, uniformRateLimits } from "../src/reference/rate-limit.ts";
import { embeddedTimeScale } from "../src/runner/target.ts";

export interface ServerChild {
  readonly baseUrl: string;
  readonly token: string;
  readonly certificatePem: string;
  /** The login server's seeded user. */
  readonly login: { readonly username: string; readonly password: string };
  /** The server process's CPU time so far (user + system, µs) and resident memory. */
  usage(): Promise<{ cpuUs: number; rssBytes: number }>;
  close(): Promise<void>;
}

type Message =
  | {
      type: "ready";
      baseUrl: string;
      token: string;
      certificatePem: string;
      login: { username: string; password: string };
    }
  | { type: "usage"; cpuUs: number; rssBytes: number };

const thisFile = fileURLToPath(import.meta.url);

/**
 * Forks this file as a server process (same Node binary) and waits until it listens (at most 30 s).
 * `rateWindowScale`: the description's limits for every caller, windows multiplied by it; default: limits so wide
 * they never bind.
 */
export async function startServerChild(options: { rateWindowScale?: number } = {}): Promise<ServerChild> {
  const scale = options.rateWindowScale;
  const child = fork(thisFile, ["--serve", ...(scale === undefined ? [] : [String(scale)])], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    // Not the parent's flags: profiling the bench (`node --cpu-prof bench/run.ts`) profiles the client only.
    execArgv: [],
  });
  const ready = await new Promise<Extract<Message, { type: "ready" }>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("the reference server child did not start in 30 s")),
      30_000,
    );
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the reference server child exited with ${code}`)));
    child.once("message", (message: Message) => {
      clearTimeout(timer);
      if (message.type === "ready") resolve(message);
      else reject(new Error(`unexpected first message ${message.type}`));
    });
  });
  child.removeAllListeners("exit");
  return {
    baseUrl: ready.baseUrl,
    token: ready.token,
    certificatePem: ready.certificatePem,
    login: ready.login,
    usage: () =>
      new Promise((resolve) => {
        child.once("message", (message: Message) => {
          if (message.type === "usage") resolve({ cpuUs: message.cpuUs, rssBytes: message.rssBytes });
        });
        child.send({ type: "usage" });
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ type: "close" });
      }),
  };
}

async function serve(rateWindowScale: number | undefined): Promise<void> {
  const { createReferenceServer } = await import("../src/reference/server.ts");
  const limits =
    rateWindowScale === undefined
      ? uniformRateLimits(1_000_000_000, 60_000)
      : scaleRateWindows(describedRateLimits, rateWindowScale);
  const server = await createReferenceServer({
    rateLimits: limits,
    ownTokenRateLimits: limits,
    addressRateLimits: limits,
    ...(rateWindowScale === undefined ? {} : { timeScale: embeddedTimeScale }),
    onDefect: (error) => process.stderr.write(`reference server defect: ${String(error)}\n`),
  });
  // Stops on `close`, and also when the IPC channel closes: a bench that crashed must not leave a server behind.
  process.once("disconnect", () => {
    void server.close().finally(() => process.exit(0));
  });
  process.on("message", (message: { type: string }) => {
    if (message.type === "usage") {
      const cpu = process.cpuUsage();
      process.send?.({ type: "usage", cpuUs: cpu.user + cpu.system, rssBytes: process.memoryUsage.rss() });
    } else if (message.type === "close") {
      process.disconnect();
    }
  });
  process.send?.({
    type: "ready",
    baseUrl: server.baseUrl,
    token: server.token,
    certificatePem: server.certificatePem ?? "",
    login: { username: server.user.username, password: server.user.password },
  });
}

if (process.argv[2] === "--serve")
  await serve(process.argv[3] === undefined ? undefined : Number(process.argv[3]));
