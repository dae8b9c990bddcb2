/**
 * Conventions users bring (issue 35 item 3): `--no-color`, budgets per hour, `conform.yaml` (or `.json`) read from
 * the current folder when no `--config` is given, and a config file's errors carrying their `[CODE]`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.ts";
import { conformBin } from "../helpers/cli-runs.ts";

/** conform run in `cwd` as a user runs it there (its own process: the folder is the process's). */
function conformIn(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  // Without npm's INIT_CWD (the test runner's): conform would go back to the folder npm was started in.
  const {
    CI: _ci,
    NO_COLOR: _no,
    FORCE_COLOR: _force,
    INIT_CWD: _init,
    npm_lifecycle_event: _npm,
    ...rest
  } = process.env;
  const result = spawnSync(process.execPath, [conformBin, ...args], {
    cwd,
    env: { ...rest, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The escape that starts a colour. */
const ansi = "\u001b[";

describe("a config file found in the current folder", () => {
  it.each(["conform.yaml", "conform.json"])("%s is read when no --config is given", (name) => {
    const dir = mkdtempSync(join(tmpdir(), "conform-config-"));
    const options = { suite: ["catalogue"], "exclude-check": ["rate-limit-headers"], "rate-limit": "3600/h" };
    writeFileSync(
      join(dir, name),
      name.endsWith(".json")
        ? JSON.stringify(options)
        : "suite: [catalogue]\nexclude-check: [rate-limit-headers]\nrate-limit: 3600/h\n",
    );
    const result = conformIn(dir, ["run", "--list"]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain("suites (1):\n  catalogue  ");
    expect(result.out).not.toContain("rate-limit-headers");
  });

  it("an explicit --config wins over the folder's, and flags over both", () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-config-"));
    writeFileSync(join(dir, "conform.yaml"), "suite: [catalogue]\n");
    writeFileSync(join(dir, "other.yaml"), "suite: [lists]\n");
    expect(conformIn(dir, ["run", "--list", "--config", "other.yaml"]).out).toContain(
      "suites (1):\n  lists  ",
    );
    expect(conformIn(dir, ["run", "--list", "--suite", "headers"]).out).toContain("suites (1):\n  headers  ");
  });

  it.each([
    [
      "conform.yaml",
      "concurrency: {a: 1}\n",
      /config file .*conform\.yaml is not valid: "concurrency" must be .* \[CONFIG_INVALID\]\n$/,
    ],
    ["conform.json", "{", /config file .*conform\.json is not valid: .* \[CONFIG_INVALID\]\n$/],
  ])("a broken %s is one line with its code, exit 2", (name, text, message) => {
    const dir = mkdtempSync(join(tmpdir(), "conform-config-"));
    writeFileSync(join(dir, name), text);
    const result = conformIn(dir, ["run", "--list"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it("a --config that cannot be read says so with its code", async () => {
    const result = await cli(["run", "--list", "--config", join(tmpdir(), "conform-no-such-config.yaml")]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/cannot be read \(ENOENT\) \[CONFIG_INVALID\]\n$/);
  });
});

describe("--no-color and --rate-limit N/h", () => {
  it("--no-color wins over FORCE_COLOR; without it the console is coloured", () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-color-"));
    const args = [
      "run",
      "--suite",
      "catalogue",
      "--operation",
      "getRegions",
      "--reporter",
      "console",
      "--rate-limit",
      "36000/h",
      "--report-dir",
      dir,
    ];
    const coloured = conformIn(dir, args, { FORCE_COLOR: "1" });
    expect(coloured.code, coloured.err).toBe(0);
    expect(coloured.out).toContain(ansi);
    const plain = conformIn(dir, [...args, "--no-color"], { FORCE_COLOR: "1" });
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out).not.toContain(ansi);
  });

  it("refuses a budget in another unit, naming the ones it takes", async () => {
    const result = await cli(["run", "--list", "--rate-limit", "5/d"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("--rate-limit 5/d: use auto, N/s, N/m or N/h");
  });
});
