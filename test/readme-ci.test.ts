/**
 * The README's GitHub Actions example (the YAML block after `<!-- ci-example: github-actions -->`): it parses, its
 * matrix and `--shard` agree, and every `conform` command it runs exists with every option it gives (each option
 * appears in that command's `--help`); the files it publishes are the ones the reporters write.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { commands } from "../src/cli/commands/index.ts";

const checkout = join(import.meta.dirname, "..");
const readme = readFileSync(join(checkout, "README.md"), "utf8");
const block = /<!-- ci-example: github-actions -->\n```yaml\n([\s\S]*?)\n```/.exec(readme)?.[1];
// biome-ignore lint/suspicious/noExplicitAny: a workflow read as data
const workflow: any = parse(block ?? "");
// biome-ignore lint/suspicious/noExplicitAny: a workflow read as data
const steps = (job: string): any[] => workflow.jobs[job].steps;
const runs = Object.keys(workflow?.jobs ?? {}).flatMap((job) =>
  steps(job).flatMap((step) => (typeof step.run === "string" ? [step.run as string] : [])),
);
/** `npx conform <command> <args>` lines, each `${{ ... }}` expression one word without spaces. */
const conformLines = runs
  .flatMap((run) => run.split(/\n(?!\s)|&&|;/))
  .map((line) =>
    line
      .replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_whole, expression: string) => `\${{${expression}}}`)
      .replace(/\s+/g, " ")
      .trim(),
  )
  .filter((line) => line.startsWith("npx conform "))
  .map((line) => line.slice("npx conform ".length).split(" "));

describe("the README's CI example", () => {
  it("is a workflow with a matrix of shards and a merge job after it", () => {
    expect(block).toBeDefined();
    expect(workflow.jobs.shard.strategy.matrix.shard).toEqual([1, 2, 3, 4]);
    expect(workflow.jobs.merge.needs).toBe("shard");
    expect(conformLines.map((words) => words[0])).toEqual(["run", "merge-reports"]);
  });

  it("names commands that exist, each option in that command's --help", () => {
    const known = commands.map((command) => String(command.command).split(" ")[0]);
    for (const [name, ...words] of conformLines) {
      expect(known).toContain(name);
      // A child process: yargs ends the process after printing help.
      const help = spawnSync(process.execPath, [join(checkout, "bin", "conform.js"), name!, "--help"], {
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(help.status).toBe(0);
      for (const option of words.filter((word) => word.startsWith("--")))
        expect(help.stdout, `${name} ${option}`).toContain(`${option} `);
    }
  });

  it("shards as many as its matrix holds, and publishes the files the reporters write", () => {
    const run = conformLines.find((words) => words[0] === "run")!;
    expect(run[run.indexOf("--shard") + 1]).toBe(
      `\${{matrix.shard}}/${workflow.jobs.shard.strategy.matrix.shard.length}`,
    );
    const merge = steps("merge");
    expect(
      merge.some(
        (step) => step.run?.includes("merged/latest/summary.md") && step.run.includes("GITHUB_STEP_SUMMARY"),
      ),
    ).toBe(true);
    expect(merge.find((step) => step.with?.report_paths)?.with.report_paths).toBe("merged/latest/junit.xml");
  });
});
