/**
 * bin/signal-hold.js: while conform loads, a SIGINT or SIGTERM is held for the run's handlers; a second one, or one
 * no run took, ends the process by the signal as Node's default would. Each row runs in a child process (the
 * signals are real).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { takeHeldSignal } from "../../src/cli/interruption.ts";

const hold = pathToFileURL(join(import.meta.dirname, "..", "..", "bin", "signal-hold.js")).href;

/** Runs `body` after `holdSignals()` in a child; its status, signal and stdout. */
function withHold(body: string) {
  const script = `import { holdSignals, releaseHeldSignal } from ${JSON.stringify(hold)};
const take = () => process[Symbol.for("conform.signalHold")]?.take();
holdSignals();
${body}`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout };
}

/** Lets the signals sent so far be delivered (they are handled on the event loop). */
const settle = "await new Promise((resolve) => setTimeout(resolve, 100));";

describe("signals held while conform loads", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("one %s is held, then taken", (signal) => {
    const result = withHold(`process.kill(process.pid, "${signal}"); ${settle} console.log(take());`);
    expect(result).toMatchObject({ status: 0, stdout: `${signal}\n` });
  });

  it("none held: taking answers undefined and holds no more", () => {
    const result = withHold(`console.log(take(), process.listenerCount("SIGTERM"));`);
    expect(result).toMatchObject({ status: 0, stdout: "undefined 0\n" });
  });

  it.each(["SIGINT", "SIGTERM"] as const)("a second %s ends the process by the signal", (signal) => {
    const result = withHold(
      `process.kill(process.pid, "SIGTERM"); ${settle} process.kill(process.pid, "${signal}"); ${settle} console.log("lived");`,
    );
    expect(result).toMatchObject({ status: null, signal, stdout: "" });
  });

  it("a held signal no run took ends the process by it when released", () => {
    const result = withHold(
      `process.kill(process.pid, "SIGINT"); ${settle} releaseHeldSignal(); ${settle} console.log("lived");`,
    );
    expect(result).toMatchObject({ status: null, signal: "SIGINT", stdout: "" });
  });

  it("outside bin/conform.js (a test, the library) nothing is held", () => {
    expect(takeHeldSignal()).toBeUndefined();
  });
});
