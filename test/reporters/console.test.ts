import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CaseFinished, RunEvent } from "../../src/core/events.ts";
import { type ConsoleReporterInternals, createConsoleReporter } from "../../src/reporters/console.ts";
import type { ReporterOptions } from "../../src/reporters/types.ts";
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { withGroups } from "../fixtures/events/build.ts";
import { crashedRun, interruptedRun } from "../fixtures/events/interrupted.ts";
import { failingRun } from "../fixtures/events/with-failures.ts";
import { Capture, feed } from "./helpers.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape sequences is the point
const escapeSequence = /\u001b/;

async function output(
  events: RunEvent[],
  terminal: Partial<Pick<ReporterOptions, "isTTY" | "ci" | "color">> = {},
  own: ConsoleReporterInternals = {},
): Promise<string> {
  const capture = new Capture();
  const reporter = createConsoleReporter(
    { outputDir: "/nonexistent", stream: capture, isTTY: false, ci: false, ...terminal },
    own,
  );
  await feed(reporter, events);
  return capture.text;
}

describe("console reporter", () => {
  it("an all-green run: header, one line per suite, summary; no colour or bar off a terminal", async () => {
    const text = await output(allGreenRun());
    expect(text).not.toMatch(escapeSequence);
    expect(text).not.toContain("\r");
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "conform 0.1.0 → https://127.0.0.1:8443/v4 (embedded reference)  spec 4.189.0 · seed 424242 · 2 suites, 5 cases · run 20250301T120000Z-green · labels conform-zgreen-*",
    );
    expect(lines[1]).toBe("✓ instances-read  Instances: read operations  3 passed  (30 ms)");
    expect(lines[2]).toBe("✓ pagination  Pagination invariants  2 passed  (46 ms)");
    expect(lines.at(-1)).toBe("3 of 6 operations exercised; 3 never requested (3 writes not allowed)");
    expect(lines.at(-2)).toBe("run 20250301T120000Z-green · labels conform-zgreen-*");
    expect(lines.at(-3)).toMatch(
      /^✓ PASSED {2}5 passed \(5 cases\) · 7 exchanges · 3\/6 operations · p50 \d+ ms, p99 \d+ ms · 1\.25 s$/,
    );
    expect(text).not.toContain("FAIL");
  });

  it("says after a suite's line why its cases were skipped, a line per reason naming the first few", async () => {
    const reasons = [
      "needs the costly tag (--tag costly)",
      "needs the costly tag (--tag costly)",
      "no 202 documented",
    ];
    let skippedSoFar = 0;
    const events = allGreenRun().map((event): RunEvent => {
      if (event.type !== "case-finished" || event.suiteId !== "instances-read") return event;
      const skipReason = reasons[skippedSoFar++];
      return skipReason ? { ...event, status: "skipped", skipReason } : event;
    });
    const lines = (await output(events)).trimEnd().split("\n");
    const at = lines.findIndex((line) => line.startsWith("✓ instances-read"));
    const caseIds = allGreenRun()
      .filter(
        (event): event is CaseFinished =>
          event.type === "case-finished" && event.suiteId === "instances-read",
      )
      .map((event) => event.caseId);
    expect(lines.slice(at + 1, at + 3)).toEqual([
      `  - skipped ${caseIds[0]}, ${caseIds[1]}: needs the costly tag (--tag costly)`,
      `  - skipped ${caseIds[2]}: no 202 documented`,
    ]);
    expect(lines[at + 3]).toMatch(/^✓ pagination/);
  });

  it("traffic conform did not make (labels nothing): no seed, singulars, no latency when none was measured", async () => {
    const events = allGreenRun().map((event): RunEvent => {
      if (event.type === "run-started")
        return { ...event, seed: 0, labelPrefix: "", suites: [{ ...event.suites[0]!, cases: 1 }] };
      if (event.type === "exchange")
        return {
          ...event,
          exchange: { ...event.exchange, timings: { ...event.exchange.timings, measured: false } },
        };
      return event;
    });
    const lines = (await output(events)).trimEnd().split("\n");
    expect(lines[0]).toBe(
      "conform 0.1.0 → https://127.0.0.1:8443/v4 (embedded reference)  spec 4.189.0 · 1 suite, 1 case · run 20250301T120000Z-green",
    );
    expect(lines.at(-3)).toBe("✓ PASSED  5 passed (5 cases) · 7 exchanges · 3/6 operations · 1.25 s");
  });

  it("a block per failure group: check, size, shape, then each failure with its case, expected/actual, operation, response, curl, seed and replay", async () => {
    const text = await output(failingRun());
    const blocks = text.split("\n── ").slice(1);
    expect(blocks.map((block) => block.split("\n")[0]?.replace(/\[group \w+\]/, "[group]"))).toEqual([
      "FAIL body-matches-schema  1 failure in 1 case  [group]",
      "ERROR error:TRANSPORT_TIMEOUT  1 failure in 1 case  [group]",
      "FAIL filter-semantics  1 failure in 1 case  [group]",
      "FAIL not-a-server-error  1 failure in 1 case  [group]",
    ]);
    const [schema, errored, generated] = blocks as [string, string, string];
    expect(schema).toContain('  shape: /status must be one of the allowed values (got "…")');
    expect(schema).toContain("  operations: getComputeInstance (1)");
    expect(schema).toContain("  › instances-read › get one instance [get]");
    expect(schema).toContain("    ✗ body-matches-schema: /status must be one of the allowed values");
    expect(schema).toContain('      expected: {"status":["running","offline","booting"]}');
    expect(schema).toContain('      actual:   {"status":"exploding"');
    expect(schema).toContain("      operation: GET /v4/linode/instances/7 (getComputeInstance)");
    expect(schema).toContain('      response:  200 application/json, 173 bytes: {"id":7');
    expect(schema).toContain(
      `      reproduce: curl --insecure https://127.0.0.1:8443/v4/linode/instances/7 -H 'accept: application/json' -H "Authorization: Bearer $CONFORM_TOKEN"`,
    );
    expect(generated).toContain("    generated case: seed -1893247561, path 41:2:0");
    expect(generated).toContain(
      '      counterexample: {"+and":[{"region":"us-east"},{"label":{"+contains":"a\'b"}}]}',
    );
    expect(generated).toContain(
      "      replay: conform replay --suite x-filter --case filter-property --seed -1893247561 --path 41:2:0",
    );
    expect(generated).toContain(
      `-H 'x-filter: {"+and":[{"region":"us-east"},{"label":{"+contains":"a'\\''b"}}]}'`,
    );
    expect(errored).toContain("  › workflows › node balancer health follows the node [balancer-health]");
    expect(errored).toContain("    error TRANSPORT_TIMEOUT: no answer from the target within 30000 ms");
    expect(text).toContain("4 failure groups, largest first:");
    expect(text).toContain("⚠ the target sent no X-RateLimit-Reset header");
    expect(text.trimEnd().split("\n").at(-3)).toMatch(
      /^✗ FAILED {2}2 failed, 1 errored, 2 passed, 1 skipped \(6 cases\) · 6 exchanges, 2 × 429, 2 retries · 5\/6 operations · .* · 31\.5 s$/,
    );
  });

  it("a hostile body cannot drive the terminal, even with colours on", async () => {
    const text = await output(failingRun(), { isTTY: true, ci: true });
    // Colours are there (a TTY), yet once our own styling is stripped no control character is left.
    expect(text).toMatch(escapeSequence);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
    expect(stripVTControlCharacters(text)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(stripVTControlCharacters(text)).toContain("\\x1b[2J\\x1b[31mred\\x00\\x07");
  });

  it("colours only on a terminal, unless told otherwise", async () => {
    expect(await output(allGreenRun(), { isTTY: true, ci: true })).toMatch(escapeSequence);
    expect(await output(allGreenRun(), { isTTY: true, ci: true, color: false })).not.toMatch(escapeSequence);
    expect(await output(allGreenRun(), { isTTY: false, color: true })).toMatch(escapeSequence);
  });

  it("draws a progress bar on a terminal, and never under CI", async () => {
    const fast = { progressDelayMs: 0, progressIntervalMs: 0 };
    const tty = await output(failingRun(), { isTTY: true, ci: false }, fast);
    expect(stripVTControlCharacters(tty)).toMatch(/█+░* 2\/6 cases · 1 failed · instances-read/);
    expect(stripVTControlCharacters(tty)).toContain("██████████████████████ 6/6 cases".slice(-9));
    // Each bar is cleared before a line is printed over it.
    expect(tty).toContain("\r\u001b[2K");
    const ci = await output(failingRun(), { isTTY: true, ci: true }, fast);
    expect(ci).not.toMatch(/\d\/6 cases/);
    expect(ci).not.toContain("\r");
    const pipe = await output(failingRun(), { isTTY: false, ci: false }, fast);
    expect(pipe).not.toContain("\r");
  });

  it("a short run never shows the bar (it waits before the first draw)", async () => {
    let clock = 0;
    const text = await output(allGreenRun(), { isTTY: true }, { now: () => clock, progressDelayMs: 1000 });
    expect(text).not.toContain("\r");
    clock = 0;
    const events = allGreenRun();
    const capture = new Capture();
    const reporter = createConsoleReporter(
      { outputDir: "/x", stream: capture, isTTY: true, ci: false },
      { now: () => clock, progressDelayMs: 1000 },
    );
    for (const event of events) {
      clock += 300;
      await reporter[event.type]?.(event as never);
    }
    await reporter.close?.();
    expect(stripVTControlCharacters(capture.text)).toMatch(/\d\/5 cases/);
  });

  it("an interrupted run lists the interrupted case and what cleanup left behind", async () => {
    const text = await output(interruptedRun());
    expect(text).toContain("■ workflows  Instance lifecycle  2 passed, 1 interrupted");
    expect(text).toContain("■ interrupted: workflows › the instance boots");
    expect(text).not.toContain("unfinished");
    expect(text).toContain("cleanup left 1 resource(s) behind (conform cleanup removes them):");
    expect(text).toContain("  linode/instances/123 (conform-ab12-web): 500 on DELETE");
    expect(text.trimEnd().split("\n").at(-3)).toMatch(
      /^■ INTERRUPTED {2}2 passed, 1 skipped, 1 interrupted \(4 cases\)/,
    );
  });

  it("a run that stopped in a case lists it as unfinished", async () => {
    expect(await output(crashedRun())).toContain("■ unfinished: workflows › the instance boots");
  });

  it("a run that never finished still ends with a summary (on close)", async () => {
    const text = await output(crashedRun());
    expect(text.trimEnd().split("\n").at(-3)).toMatch(
      /^■ STOPPED before the run finished {2}2 passed \(2 cases\) · 2 exchanges/,
    );
    // The summary is printed once, whether run-finished came or close did.
    expect(text.match(/INTERRUPTED|STOPPED/g)).toHaveLength(1);
  });
});

describe("console reporter: rate-limit waits", () => {
  it.each([
    ["window", "⏳ waiting 42.0 s for getRegions: its rate-limit window is spent (X-RateLimit-Remaining 0)"],
    ["retry-after", "⏳ waiting 42.0 s for getRegions: answered 429 (Retry-After)"],
    ["budget", "⏳ waiting 42.0 s for getRegions: the --rate-limit budget"],
  ] as const)(
    "says which limit it waits for and how long (%s), as a line of its own",
    async (reason, line) => {
      const events = allGreenRun();
      events.splice(1, 0, { type: "rate-limit-wait", limit: "getRegions", waitMs: 42_000, reason });
      const text = await output(events);
      expect(text.split("\n")[1]).toBe(line);
    },
  );
});

describe("console reporter: a case in several groups", () => {
  it("tells the case's logs once, with its first assertion's group, and not under a check's group", async () => {
    const events = failingRun().filter((event) => event.type !== "failure-group");
    const index = events.findIndex((event) => event.type === "case-finished" && event.status === "failed");
    const original = events[index] as CaseFinished;
    const assertion = (name: string) => ({
      checkId: `assert:${name}`,
      exchangeId: undefined,
      outcome: { status: "failed" as const, message: `${name} did not hold` },
    });
    events[index] = {
      ...original,
      results: [...original.results, assertion("first"), assertion("second")],
      logs: ["waited 3 s for the instance"],
    };
    const text = await output(withGroups(events));
    expect(text).toContain("assert:second");
    expect(text.match(/log: waited 3 s for the instance/g)).toHaveLength(1);
  });
});

describe("a case waiting on a slow answer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The run up to its first case's start, then `quietMs` with no answer, the reporter looking every second. */
  async function waitingFor(
    quietMs: number,
    terminal: Partial<ReporterOptions>,
    pacedMs = 0,
  ): Promise<string> {
    vi.useFakeTimers();
    let clock = 0;
    const capture = new Capture();
    const reporter = createConsoleReporter(
      { outputDir: "/x", stream: capture, isTTY: false, ci: false, ...terminal },
      { now: () => clock, progressDelayMs: 0, waitTickMs: 1000 },
    );
    const events = allGreenRun();
    const started = events.findIndex((event) => event.type === "case-started");
    for (const event of events.slice(0, started + 1)) await reporter[event.type]?.(event as never);
    if (pacedMs > 0) {
      const wait = {
        type: "rate-limit-wait",
        limit: "getRegions",
        waitMs: pacedMs,
        reason: "window",
      } as const;
      await reporter["rate-limit-wait"]?.(wait);
    }
    for (let second = 0; second < quietMs / 1000; second += 1) {
      clock += 1000;
      vi.advanceTimersByTime(1000);
    }
    await reporter.close?.();
    return stripVTControlCharacters(capture.text);
  }

  it.each([
    ["under CI", { isTTY: true, ci: true }],
    ["piped", { isTTY: false, ci: false }],
  ])("%s: one line per minute without an answer", async (_where, terminal) => {
    const text = await waitingFor(150_000, terminal);
    const lines = text.split("\n").filter((line) => line.startsWith("⏳ still running:"));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^⏳ still running: \S+ › .+: no answer for 1 min 00 s$/);
    expect(lines[1]).toMatch(/: no answer for 2 min 00 s$/);
  });

  it("on a terminal: the progress line names the case and how long it has waited", async () => {
    const text = await waitingFor(5000, { isTTY: true, ci: false });
    expect(text).toMatch(/0\/\d+ cases · \S+ › .+: no answer for 5\.00 s/);
    expect(text).not.toContain("still running");
  });

  it("does not blame the target for a case quiet while the run waits for a rate-limit window", async () => {
    const lines = (await waitingFor(150_000, { isTTY: false, ci: true }, 90_000))
      .split("\n")
      .filter((line) => line.startsWith("⏳ still running:"));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/: quiet for 1 min 00 s, during a rate-limit wait$/);
    // The wait over, a case still quiet is the target's.
    expect(lines[1]).toMatch(/: no answer for 2 min 00 s$/);
  });

  it("on a terminal: the progress line says a rate-limit wait is under way", async () => {
    const text = await waitingFor(5000, { isTTY: true, ci: false }, 60_000);
    expect(text).toMatch(/0\/\d+ cases · \S+ › .+: quiet for 5\.00 s, during a rate-limit wait/);
    expect(text).not.toMatch(/no answer for/);
  });

  it("says nothing of a case answered within the minute", async () => {
    expect(await waitingFor(30_000, { isTTY: false, ci: true })).not.toContain("still running");
  });
});
