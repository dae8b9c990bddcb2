/**
 * The docs a newcomer reads: the README stays a first hour (under 12 KB), and every relative link of the README,
 * ARCHITECTURE.md, BENCHMARKS.md and docs/ leads to a file that exists (and, into a Markdown page, to a heading it has).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const checkout = join(import.meta.dirname, "..", "..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const pages = [
  ...["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"].map((file) => join(checkout, file)),
  ...markdownFiles(join(checkout, "docs")),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(text: string): Set<string> {
  const outsideCode = text.replace(/```[\s\S]*?```/g, "");
  return new Set([...outsideCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

interface Link {
  readonly from: string;
  readonly target: string;
}

/** The relative links of a page (not in code blocks): `[text](target)`, without web and mail addresses. */
function relativeLinks(file: string): Link[] {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => ({ from: relative(checkout, file), target }));
}

/** What is wrong with one link, or undefined when it leads where it says. */
function linkProblem({ from, target }: Link): string | undefined {
  const [path, anchor] = target.split("#") as [string, string | undefined];
  const file = path === "" ? join(checkout, from) : resolve(dirname(join(checkout, from)), path);
  const name = relative(checkout, file);
  if (!existsSync(file)) return `${from}: ${target} leads nowhere`;
  if (anchor === undefined || !statSync(file).isFile() || !file.endsWith(".md")) return undefined;
  return anchorsOf(readFileSync(file, "utf8")).has(anchor)
    ? undefined
    : `${from}: ${target} names no heading of ${name}`;
}

describe("the docs", () => {
  it("keep the README a first hour: under 12 KB", () => {
    expect(statSync(join(checkout, "README.md")).size).toBeLessThan(12 * 1024);
  });

  it("link only to files and headings that exist", () => {
    const links = pages.flatMap(relativeLinks);
    expect(links.length).toBeGreaterThan(40);
    expect(links.map(linkProblem).filter(Boolean)).toEqual([]);
  });

  it("tell a broken link, a missing heading and a page expected later apart", () => {
    expect(linkProblem({ from: "README.md", target: "docs/no-such-page.md" })).toMatch(/leads nowhere/);
    expect(linkProblem({ from: "README.md", target: "docs/ci.md#no-such-heading" })).toMatch(
      /names no heading/,
    );
    expect(linkProblem({ from: "README.md", target: "ARCHITECTURE.md#the-rules" })).toBeUndefined();
    expect(linkProblem({ from: "ARCHITECTURE.md", target: "docs/checks.md" })).toBeUndefined();
    expect(linkProblem({ from: "docs/ci.md", target: "../README.md#gate-your-ci" })).toBeUndefined();
  });

  it("link every page of docs/ from the README, ARCHITECTURE.md or another page", () => {
    const linked = new Set(
      pages.flatMap(relativeLinks).map(({ from, target }) => {
        const path = target.split("#")[0]!;
        return relative(
          checkout,
          path === "" ? join(checkout, from) : resolve(dirname(join(checkout, from)), path),
        );
      }),
    );
    const orphans = markdownFiles(join(checkout, "docs"))
      .map((file) => relative(checkout, file))
      .filter((name) => !linked.has(name));
    expect(orphans).toEqual([]);
  });
});
