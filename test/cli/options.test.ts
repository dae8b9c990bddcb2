/**
 * Numeric options: every one is checked by one rule table (`numberRules`), and every command refuses a value that
 * breaks its rule before doing anything: exit 2, one line naming the option.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { numberProblem, numberRules, plainNumber } from "../../src/cli/options.ts";
import { cli } from "../helpers/cli.ts";

describe("numberProblem", () => {
  it.each<[keyof typeof numberRules, unknown, string | undefined]>([
    ["seed", undefined, undefined],
    ["seed", 0, undefined],
    ["seed", 4294967295, undefined],
    ["seed", Number.NaN, "--seed is not a number: give an integer from 0 to 4294967295"],
    ["seed", "abc", "--seed is not a number: give an integer from 0 to 4294967295"],
    ["seed", -1, "--seed -1: give an integer from 0 to 4294967295"],
    ["seed", 1.5, "--seed 1.5: give an integer from 0 to 4294967295"],
    ["seed", 2 ** 32, "--seed 4294967296: give an integer from 0 to 4294967295"],
    ["max-failures", 0, undefined],
    ["max-failures", -1, "--max-failures -1: give an integer of at least 0"],
    ["concurrency", 0, "--concurrency 0: give an integer of at least 1"],
    ["concurrency", Number.POSITIVE_INFINITY, "--concurrency Infinity: give an integer of at least 1"],
    ["timeout", 2 ** 31, "--timeout 2147483648: give an integer from 1 to 2147483647"],
    ["runs", 1, undefined],
    ["port", 65_536, "--port 65536: give an integer from 0 to 65535"],
    ["time-scale", 0.01, undefined],
    ["time-scale", 0, "--time-scale 0: give a number above 0"],
  ])("--%s %s: %s", (option, value, problem) => {
    expect(numberProblem(option, value, numberRules[option])).toBe(problem);
  });
});

describe("plainNumber: only plain decimal text is a number (yargs would take 1e3, 0x10 and '')", () => {
  it.each<[unknown, number]>([
    ["1000", 1000],
    ["-1", -1],
    ["0.05", 0.05],
    [".5", 0.5],
    [42, 42],
    ["", Number.NaN],
    ["1e3", Number.NaN],
    ["0x10", Number.NaN],
    ["0b1", Number.NaN],
    ["Infinity", Number.NaN],
    [" 7", Number.NaN],
    ["7 ", Number.NaN],
    ["1_000", Number.NaN],
    [true, Number.NaN],
    [["1", "2"], Number.NaN],
  ])("%j → %d", (text, number) => {
    expect(plainNumber(text)).toBe(number);
  });
});

describe("every command refuses a bad number (exit 2, one line naming the option)", () => {
  const reportDir = mkdtempSync(join(tmpdir(), "conform-numbers-"));
  it.each([
    [["run", "--seed", "abc"], "--seed is not a number"],
    [["run", "--seed", "-1"], "--seed -1:"],
    [["run", "--seed", ""], "--seed is not a number"],
    [["run", "--seed", "1e3"], "--seed is not a number"],
    [["run", "--seed=0x10"], "--seed is not a number"],
    [["run", "--seed"], "--seed is not a number"],
    [["run", "--timeout", "1e3"], "--timeout is not a number"],
    [["run", "--max-failures", "-1"], "--max-failures -1:"],
    [["run", "--concurrency", "0"], "--concurrency 0:"],
    [["run", "--timeout", "abc"], "--timeout is not a number"],
    [["fuzz", "filters", "--runs", "0"], "--runs 0:"],
    [["fuzz", "filters", "--seed", "x"], "--seed is not a number"],
    [
      ["cleanup", "--base-url", "http://127.0.0.1:9/v4", "--prefix", "conform", "--timeout", "-5"],
      "--timeout -5:",
    ],
    [["serve", "--port", "70000"], "--port 70000:"],
    [["serve", "--time-scale", "0"], "--time-scale 0:"],
    [["proxy", "--target", "http://127.0.0.1:9/v4", "--port", "abc"], "--port is not a number"],
    [["serve", "--port", "0x50"], "--port is not a number"],
    [["faults", "--seed", "abc"], "--seed is not a number"],
    [["faults", "--concurrency", "0"], "--concurrency 0:"],
  ])("%j", async (args, problem) => {
    const result = await cli([
      ...args,
      ...(args[0] === "run" || args[0] === "fuzz" ? ["--report-dir", reportDir] : []),
    ]);
    expect(result.code).toBe(2);
    const lines = result.err.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]?.startsWith(`conform: ${problem}`), lines[0]).toBe(true);
    expect(result.out).toBe("");
  });
});
