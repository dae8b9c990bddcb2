/**
 * The options reference in docs/cli/ is each command's `--help` as printed now: a new or changed option fails here
 * until `npm run docs:cli` writes the pages again.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPages, cliPagesDir, commandPage } from "../../scripts/docs-cli.ts";

describe("docs/cli, the command reference", () => {
  it("is every command's --help as printed now (run `npm run docs:cli` after changing an option)", () => {
    const pages = cliPages();
    expect(pages.size).toBeGreaterThan(10);
    for (const [file, text] of pages) {
      const path = join(cliPagesDir, file);
      expect(existsSync(path), `docs/cli/${file} is missing`).toBe(true);
      expect(readFileSync(path, "utf8"), `docs/cli/${file} differs from --help`).toBe(text);
    }
    expect(readdirSync(cliPagesDir).sort()).toEqual([...pages.keys()].sort());
  }, 180_000);

  it("tells a page that no longer matches its help apart", () => {
    const page = readFileSync(join(cliPagesDir, "diff.md"), "utf8");
    const help = /```text\n([\s\S]*?)\n```/.exec(page)?.[1] ?? "";
    expect(commandPage("diff", help)).toBe(page);
    expect(commandPage("diff", help.replace("--json", "--as-json"))).not.toBe(page);
  });
});
