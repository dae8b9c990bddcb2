/**
 * The listen drivers: `reference` opens real listeners on the loopback stand-in of a sandbox private address
 * (and refuses targets that are not loopback), `command` runs a template with checked values and captures its
 * output, `none` refuses with its reason; the factory picks by options and target.
 */
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  CommandListenDriver,
  createListenDriver,
  fillTemplate,
  isLoopbackTarget,
  type ListenDriver,
  loopbackStandIn,
  NoListenDriver,
  ReferenceListenDriver,
  readListenOptions,
} from "../../src/runner/listen-drivers/index.ts";

const embedded = { baseUrl: "https://127.0.0.1:1234/v4", embedded: true };
const loopback = { baseUrl: "http://127.0.0.1:8080/v4", embedded: false };
const remote = { baseUrl: "https://api.example.net/v4", embedded: false };

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

/** Sends an HTTP request over a raw socket and returns what came back. */
function httpGet(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

/** Whether a process runs (a zombie left to a container's init that does not reap counts as dead). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && existsSync("/proc/self")) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Collects a driver's output until `done` holds. Bounded only far beyond any real wait (the test's own timeout
 * ends it first): a short bound made these tests fail on a loaded machine, where starting a process can take
 * seconds, and `stop()` then killed a command that was about to end by itself.
 */
async function outputUntil(
  driver: ListenDriver,
  done: (output: string[]) => boolean,
  output: string[] = [],
): Promise<string[]> {
  for (let i = 0; i < 100_000 && !done(output); i += 1) {
    output.push(...driver.takeOutput());
    if (!done(output)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return output;
}

const drivers: ListenDriver[] = [];
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((driver) => driver.close()));
});

describe("loopback stand-ins and targets", () => {
  it.each([
    ["192.168.128.1", "127.168.128.1"],
    ["192.168.255.254", "127.168.255.254"],
    ["10.0.0.1", undefined],
    ["192.169.1.1", undefined],
    ["192.168.1", undefined],
    ["192.168.300.1", undefined],
  ])("%s stands for %s", (address, standIn) => {
    expect(loopbackStandIn(address)).toBe(standIn);
  });

  it.each([
    [embedded, true],
    [loopback, true],
    [{ baseUrl: "http://[::1]:80/v4", embedded: false }, true],
    [{ baseUrl: "http://localhost:80/v4", embedded: false }, true],
    [remote, false],
    [{ baseUrl: "http://128.0.0.1/v4", embedded: false }, false],
  ])("%j is loopback: %s", (target, expected) => {
    expect(isLoopbackTarget(target)).toBe(expected);
  });
});

describe("reference driver", () => {
  it("listens on the stand-in of a node's private address, and stops", async () => {
    const driver = new ReferenceListenDriver(embedded);
    drivers.push(driver);
    expect(driver.unavailable).toBeUndefined();
    const port = await driver.portFor("192.168.200.7");
    expect(await connects("127.168.200.7", port)).toBe(false);
    const listener = await driver.listen({ address: "192.168.200.7", port, label: "web-1" });
    expect(await connects("127.168.200.7", port)).toBe(true);
    expect(await httpGet("127.168.200.7", port)).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nok$/);
    await listener.stop();
    await listener.stop();
    expect(await connects("127.168.200.7", port)).toBe(false);
    expect(driver.takeOutput()).toEqual([
      `web-1: listening on 127.168.200.7:${port} (stand-in of 192.168.200.7)`,
      `web-1: stopped listening on 127.168.200.7:${port}`,
    ]);
    expect(driver.takeOutput()).toEqual([]);
  });

  it("close() stops every listener still open", async () => {
    const driver = new ReferenceListenDriver(loopback);
    const ports = [await driver.portFor("192.168.200.8"), await driver.portFor("192.168.200.9")];
    await driver.listen({ address: "192.168.200.8", port: ports[0]!, label: "a-1" });
    await driver.listen({ address: "192.168.200.9", port: ports[1]!, label: "b-1" });
    expect(await connects("127.168.200.9", ports[1]!)).toBe(true);
    await driver.close();
    expect(await connects("127.168.200.8", ports[0]!)).toBe(false);
    expect(await connects("127.168.200.9", ports[1]!)).toBe(false);
  });

  it("refuses a target that is not loopback, and never binds outside 127.168.0.0/16", async () => {
    const driver = new ReferenceListenDriver(remote);
    expect(driver.unavailable).toMatch(/only against the embedded or a loopback reference server/);
    await expect(driver.portFor("192.168.1.1")).rejects.toThrow(/loopback/);
    await expect(driver.listen({ address: "192.168.1.1", port: 8080, label: "x-1" })).rejects.toThrow(
      /loopback/,
    );
    const local = new ReferenceListenDriver(embedded);
    await expect(local.listen({ address: "10.1.2.3", port: 8080, label: "x-1" })).rejects.toThrow(/192\.168/);
  });

  it("fails to listen on a port already taken, saying so", async () => {
    const driver = new ReferenceListenDriver(embedded);
    drivers.push(driver);
    const port = await driver.portFor("192.168.200.10");
    await driver.listen({ address: "192.168.200.10", port, label: "one" });
    await expect(driver.listen({ address: "192.168.200.10", port, label: "two" })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });
});

describe("command driver", () => {
  it.each([
    ["ssh root@{address} 'serve {port}' # {label}", "ssh root@192.168.1.2 'serve 8080' # web-1"],
    ["{address}:{port} {address}", "192.168.1.2:8080 192.168.1.2"],
    ["no placeholders", "no placeholders"],
  ])("fills %s", (template, expected) => {
    expect(fillTemplate(template, { address: "192.168.1.2", port: 8080, label: "web-1" })).toBe(expected);
  });

  it.each([
    [{ address: "192.168.1.2; rm -rf /", port: 80, label: "a" }, /not a dotted IPv4/],
    [{ address: "$(id)", port: 80, label: "a" }, /not a dotted IPv4/],
    [{ address: "192.168.1.2", port: 0, label: "a" }, /not 1..65535/],
    [{ address: "192.168.1.2", port: 80, label: "a b" }, /only letters/],
    [{ address: "192.168.1.2", port: 80, label: "`id`" }, /only letters/],
  ])("refuses unsafe values %j", (node, message) => {
    expect(() => fillTemplate("echo {address} {port} {label}", node)).toThrow(message);
  });

  it("runs the command while the node listens, captures its output, and stops it", async () => {
    const driver = new CommandListenDriver({
      template: `${JSON.stringify(process.execPath)} -e "console.log('up {address}:{port} {label}'); console.error('warn'); setInterval(() => {}, 1000)"`,
      port: 8080,
    });
    drivers.push(driver);
    expect(driver.unavailable).toBeUndefined();
    expect(await driver.portFor("192.168.9.9")).toBe(8080);
    const listener = await driver.listen({ address: "192.168.9.9", port: 8080, label: "web-2" });
    // Both of the command's lines, however long it takes to start.
    const output = await outputUntil(
      driver,
      (lines) => lines.filter((line) => / \[(out|err)\] /.test(line)).length >= 2,
    );
    await listener.stop();
    output.push(...driver.takeOutput());
    expect(output[0]).toMatch(/^web-2: \$ .* -e "console\.log\('up 192\.168\.9\.9:8080 web-2'\)/);
    expect(output).toContain("web-2 [out] up 192.168.9.9:8080 web-2");
    expect(output).toContain("web-2 [err] warn");
    expect(output.at(-1)).toMatch(/^web-2: command ended \((signal SIGTERM|exit 143)\)$/);
  });

  const stubborn = `${JSON.stringify(process.execPath)} -e "process.on('SIGTERM', () => {}); console.log('pid ' + process.pid); setInterval(() => {}, 1000)"`;
  it.each([
    ["the command itself", stubborn],
    // The shell stays (a second command follows), ends on SIGTERM, and leaves the stubborn process in its group.
    ["a process the command's shell started", `${stubborn}; true`],
  ])(
    "kills %s ignoring SIGTERM after the grace period, whole process group included",
    async (_name, template) => {
      const driver = new CommandListenDriver({ template, graceMs: 200 });
      const listener = await driver.listen({ address: "192.168.9.9", port: 80, label: "stubborn" });
      const line = (
        await outputUntil(driver, (lines) => lines.some((entry) => entry.startsWith("stubborn [out] pid ")))
      ).find((entry) => entry.startsWith("stubborn [out] pid "));
      const pid = Number(line?.split(" ").at(-1));
      expect(pid).toBeGreaterThan(0);
      await listener.stop();
      expect(driver.takeOutput().at(-1)).toMatch(/^stubborn: command ended/);
      // The process that ignored SIGTERM is gone.
      expect(alive(pid)).toBe(false);
    },
  );

  it("reports a command that ends by itself, with its exit code", async () => {
    const driver = new CommandListenDriver({ template: "echo once; exit 3" });
    const listener = await driver.listen({ address: "192.168.9.9", port: 80, label: "short" });
    // It ends by itself: wait for that, not for a fixed time after which stop() would kill it.
    const output = await outputUntil(driver, (lines) => lines.some((line) => line.includes("ended")));
    await listener.stop();
    expect(output).toEqual([
      "short: $ echo once; exit 3",
      "short [out] once",
      "short: command ended (exit 3)",
    ]);
  });

  it("without a template it is unavailable, saying how to give one", async () => {
    const driver = new CommandListenDriver({ template: undefined });
    expect(driver.unavailable).toMatch(/--listen-command/);
    await expect(driver.listen({ address: "192.168.1.2", port: 80, label: "a" })).rejects.toThrow(
      /--listen-command/,
    );
  });
});

describe("none driver and the factory", () => {
  it("none refuses to listen with its reason, and registers nodes on the configured port", async () => {
    const driver = new NoListenDriver({ port: 8081 });
    expect(driver.unavailable).toMatch(/no listen driver/);
    expect(await driver.portFor("192.168.1.1")).toBe(8081);
    await expect(driver.listen()).rejects.toThrow(/no listen driver/);
  });

  it.each([
    [{}, embedded, "reference"],
    [{}, loopback, "reference"],
    [{}, remote, "none"],
    [{ command: "ssh {address}" }, remote, "command"],
    [{ driver: "none" as const }, embedded, "none"],
    [{ driver: "command" as const, command: "x" }, embedded, "command"],
    [{ driver: "reference" as const }, remote, "reference"],
  ])("options %j on %j pick %s", (options, target, kind) => {
    expect(createListenDriver(options, target).kind).toBe(kind);
  });

  it("an explicit reference driver on a remote target is unavailable rather than silently listening", () => {
    expect(createListenDriver({ driver: "reference" }, remote).unavailable).toMatch(
      /--listen-driver command/,
    );
  });

  it.each([
    [{}, { options: {} }],
    [
      { listen: { driver: "command", command: "c", port: 8080 } },
      { options: { driver: "command", command: "c", port: 8080 } },
    ],
    [{ listen: "reference" }, { options: {}, problem: "suiteOptions.listen must be an object" }],
    [
      { listen: { driver: "x" } },
      { options: {}, problem: "listen driver x is unknown: use reference, command, none" },
    ],
    [{ listen: { command: 1 } }, { options: {}, problem: "listen.command must be a string" }],
    [{ listen: { port: 70000 } }, { options: {}, problem: "listen.port must be a port number, not 70000" }],
  ])("reads suite options %j", (suiteOptions, expected) => {
    expect(readListenOptions(suiteOptions)).toEqual(expected);
  });
});
