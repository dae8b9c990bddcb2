/**
 * `npm run docs:cli`: writes docs/cli/<command>.md from each command's `--help`, and docs/cli/README.md listing
 * them, so the options reference cannot drift from the CLI: `test/docs/cli-pages.test.ts` fails when a page differs
 * from what this would write now. Help is read from a child process (yargs ends the process after printing it), in
 * an empty folder (no config file of ours shows as a default) and through a pipe (yargs wraps at 110 columns).
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commands } from "../src/cli/commands/index.ts";

const checkout = join(import.meta.dirname, "..");

/** Where the pages go. */
export const cliPagesDir = join(checkout, "docs", "cli");

/** The page of each command that says more than its options, relative to docs/cli/. */
const moreAbout: Readonly<Record<string, string>> = {
  run: "[Running conform](../running.md), [reports](../reports.md), [CI](../ci.md), [suites and checks](../suites.md)",
  fuzz: "[Suites and checks](../suites.md) (generated cases, replaying a failure)",
  serve: "[The reference server](../reference-server.md)",
  spec: "[The reference server and descriptions](../reference-server.md)",
  cleanup: "[Cleanup](../cleanup.md)",
  faults: "[The fault score](../faults.md)",
  "merge-reports": "[CI](../ci.md)",
  diff: "[CI](../ci.md)",
  verify: "[Traffic](../traffic.md)",
  proxy: "[Traffic](../traffic.md)",
};

/** Every command's name, as `conform --help` lists them. */
export function commandNames(): string[] {
  return commands.map((command) => String(command.command).split(" ")[0]!);
}

/** `conform <command> --help` (no command: `conform --help`) as a person reading it through a pipe sees it. */
export function helpText(command: string | undefined): string {
  const folder = mkdtempSync(join(tmpdir(), "conform-docs-cli-"));
  try {
    const args = [join(checkout, "bin", "conform.js"), ...(command ? [command] : []), "--help"];
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "COLUMNS"));
    const result = spawnSync(process.execPath, args, { cwd: folder, env, encoding: "utf8", timeout: 60_000 });
    if (result.status !== 0)
      throw new Error(`conform ${command ?? ""} --help exited ${result.status}: ${result.stderr}`);
    return result.stdout.trimEnd();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const generatedNote =
  "<!-- Written by `npm run docs:cli` from `--help`: edit the command's options in src/cli/commands/, then run it. -->";

/** The page of one command: its help as printed, and where to read more. */
export function commandPage(command: string, help: string): string {
  const more = moreAbout[command];
  return [
    `# conform ${command}`,
    "",
    generatedNote,
    "",
    "```text",
    help,
    "```",
    ...(more ? ["", `More: ${more}.`] : []),
    "",
  ].join("\n");
}

/** The index of the command pages, under `conform --help`. */
export function indexPage(names: readonly string[], help: string): string {
  return [
    "# Command reference",
    "",
    generatedNote,
    "",
    ...names.map((name) => `- [conform ${name}](${name}.md)`),
    "",
    "```text",
    help,
    "```",
    "",
  ].join("\n");
}

/** Every page this writes, by file name under docs/cli/. */
export function cliPages(): Map<string, string> {
  const names = commandNames();
  const pages = new Map([["README.md", indexPage(names, helpText(undefined))]]);
  for (const name of names) pages.set(`${name}.md`, commandPage(name, helpText(name)));
  return pages;
}

if (import.meta.main) {
  mkdirSync(cliPagesDir, { recursive: true });
  for (const [file, text] of cliPages()) writeFileSync(join(cliPagesDir, file), text);
  process.stdout.write(`docs/cli: ${commandNames().length} command pages and README.md written\n`);
}
