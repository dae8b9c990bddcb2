/**
 * A child process that hosts the embedded reference server for sections 2 and 3, so the server and the client
 * under test each have their own core and event loop (as with `conform run --base-url` against a real target).
 * HTTPS on loopback, rate limits so wide they never bind (the bench measures speed, not pacing).
 *
 * Protocol over the IPC channel: the child sends `{type: "ready", baseUrl, token, certificatePem}` once
 * listening; on `{type: "usage"}` it answers `{type: "usage", cpuUs, rssBytes}`; on `{type: "close"}`, or when
 * the channel closes (the bench exited or crashed), it stops.
 * Start it with {@link startServerChild}.
 * @module
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { uniformRateLimits } from "../src/reference/rate-limit.ts";

export interface ServerChild {
  readonly baseUrl: string;
  readonly token: string;
  readonly certificatePem: string;
  /** The server process's CPU time so far (user + system, µs) and resident memory. */
  usage(): Promise<{ cpuUs: number; rssBytes: number }>;
  close(): Promise<void>;
}

type Message =
  | { type: "ready"; baseUrl: string; token: string; certificatePem: string }
  | { type: "usage"; cpuUs: number; rssBytes: number };

const thisFile = fileURLToPath(import.meta.url);

/** Forks this file as a server process (same Node binary) and waits until it listens (at most 30 s). */
export async function startServerChild(): Promise<ServerChild> {
  const child = fork(thisFile, ["--serve"], {
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

async function serve(): Promise<void> {
  const { createReferenceServer } = await import("../src/reference/server.ts");
  const wide = uniformRateLimits(1_000_000_000, 60_000);
  const server = await createReferenceServer({
    rateLimits: wide,
    ownTokenRateLimits: wide,
    addressRateLimits: wide,
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
  });
}

if (process.argv[2] === "--serve") await serve();
