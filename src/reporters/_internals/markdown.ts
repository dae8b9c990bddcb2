/**
 * Markdown that text from a target cannot subvert in a CI job summary or a PR comment (GitHub-flavoured): hostile
 * text goes into code spans (no markup, links, images, HTML or @mentions are interpreted inside one), on one line,
 * with table pipes escaped; plain text has Markdown punctuation backslash-escaped and `<` as an entity.
 * @internal
 */
import { excerpt, oneLine } from "./text.ts";

/** An inline code span for any text: fenced with one backtick more than the longest run inside (CommonMark 6.1). */
export function codeSpan(text: string, max = 300): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const line = excerpt(oneLine(text.replace(/[\u0000-\u001f\u007f]/g, " ")), max).replace(/\|/g, "\\|");
  if (line === "") return "` `";
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Plain text with Markdown (and HTML) meaning taken away, on one line. */
export function escapeMarkdown(text: string): string {
  return oneLine(text)
    .replace(/[\\`*_{}[\]()#+\-.!|~>]/g, (char) => `\\${char}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/@/g, "@\u200b");
}

/**
 * A fenced code block of lines (a curl line, a replay command), indented by `indent` (inside a list item): fenced
 * with more backticks than the longest run inside, control characters removed, each line cut to `max`.
 */
export function codeBlock(lines: readonly string[], indent = "", language = "sh", max = 2000): string[] {
  const clean = lines.map((line) =>
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    excerpt(oneLine(line.replace(/[\u0000-\u001f\u007f]/g, " ")), max),
  );
  const longest = Math.max(
    0,
    ...clean.flatMap((line) => [...line.matchAll(/`+/g)].map((run) => run[0].length)),
  );
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${indent}${fence}${language}`, ...clean.map((line) => `${indent}${line}`), `${indent}${fence}`];
}
