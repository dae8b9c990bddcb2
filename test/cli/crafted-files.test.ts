/**
 * The crafted-files corpus: input files someone else wrote (reports, HARs, cassettes, configs, descriptions) and
 * places to write that refuse. Every one ends in one line and exit 2 (or a verdict), never a stack; outputs made from
 * a hostile but valid report escape what came from it; nothing is written outside the report directory. FIFOs and
 * large sparse files are made here, in a temporary folder (no device is ever read).
 */
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonReporter } from "../../src/reporters/json.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { failingRun, hostileLabel } from "../fixtures/events/with-failures.ts";
import { type CliResult, cli } from "../helpers/cli.ts";
import { feed, fileOptions } from "../reporters/helpers.ts";

const root = mkdtempSync(join(tmpdir(), "conform-crafted-"));
// The FIFO and the 3 GiB sparse file go with it.
afterAll(() => rmSync(root, { recursive: true, force: true }));
// biome-ignore lint/suspicious/noExplicitAny: a report.json edited as data
type Json = any;
let valid: Json;

const file = (name: string, content: string | object): string => {
  const path = join(root, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};

/** One line on stderr (a usage mistake adds yargs' pointer to --help), no stack frame, no error class's name. */
function expectOneLineRefusal(result: CliResult, message: RegExp): void {
  expect(result.code, result.err + result.out).toBe(2);
  const lines = result.err.trimEnd().split("\n");
  expect(
    lines.filter((line) => !/^Run `conform --help` for usage\.$/.test(line)),
    result.err,
  ).toHaveLength(1);
  expect(result.err).toMatch(message);
  expect(result.err).not.toMatch(/\n\s+at |TypeError|RangeError|unexpected error/);
}

beforeAll(async () => {
  const options = await fileOptions();
  await feed(createJsonReporter(options), failingRun());
  valid = JSON.parse(readFileSync(join(options.outputDir, "report.json"), "utf8"));
  valid.selection = { suites: [], tags: [], excludeTags: [], checks: [], excludeChecks: [] };
});

/** A copy of the valid report with one change made by `edit`. */
function crafted(edit: (report: Json) => void): Json {
  const copy = structuredClone(valid);
  edit(copy);
  return copy;
}

describe("report.json of the right version but a wrong shape", () => {
  const cases: [string, (report: Json) => void][] = [
    ["suites not a list", (r) => (r.suites = "x")],
    ["a suite without cases", (r) => delete r.suites[0].cases],
    ["cases null", (r) => (r.suites[0].cases = null)],
    ["a case's results an object", (r) => (r.suites[0].cases[0].results = {})],
    ["a case null", (r) => (r.suites[0].cases[0] = null)],
    ["groups of numbers", (r) => (r.groups = [1, 2])],
    ["a group's firstCases a number", (r) => (r.groups[0].firstCases = 5)],
    ["counts as text", (r) => (r.counts.failed = "7")],
    ["a count beyond exact sums", (r) => (r.suites[0].counts.passed = 1e300)],
    ["a negative count", (r) => (r.counts.passed = -5)],
    ["a status of markup", (r) => (r.status = "<img src=https://example.invalid/x.png>")],
    ["a target without a base URL", (r) => (r.target = { baseUrl: 5 })],
    ["spec null", (r) => (r.spec = null)],
    ["coverage a string", (r) => (r.coverage = "all")],
    ["an exchange's response a list", (r) => (r.exchanges = [])],
    ["shard with text", (r) => (r.shard = { index: "a", count: 2 })],
    ["selection a list", (r) => (r.selection = [])],
    ["mergedFrom an object", (r) => (r.mergedFrom = {})],
    ["a snapshot's time not a time", (r) => (r.snapshot = { sequence: 1, takenAt: "<b>now</b>" })],
  ];

  it.each(cases)(
    "merge-reports, diff, --baseline and --durations refuse %s in one line (exit 2)",
    async (name, edit) => {
      const path = file(`${name.replace(/\W+/g, "-")}.json`, crafted(edit));
      const reportDir = join(root, "merged", name.replace(/\W+/g, "-"));
      const merged = await cli(["merge-reports", path, "--report-dir", reportDir, "--reporter", "markdown"]);
      expectOneLineRefusal(merged, /not a (valid|conform) report\.json/);
      const diffed = await cli(["diff", path, path]);
      expectOneLineRefusal(diffed, /not a (valid|conform) report\.json/);
      for (const option of [
        ["--baseline", path],
        ["--shard", "1/2", "--durations", path],
      ])
        expectOneLineRefusal(await cli(["run", ...option]), /not a (valid|conform) report\.json/);
    },
  );

  it("merge-reports and diff refuse a report nested 200,000 deep in one line (exit 2)", async () => {
    const text = JSON.stringify(valid).replace(
      /"labelPrefix":"[^"]*"/,
      `"labelPrefix":${"[".repeat(200_000)}${"]".repeat(200_000)}`,
    );
    const path = file("deep.json", text);
    const merged = await cli([
      "merge-reports",
      path,
      "--report-dir",
      join(root, "deep"),
      "--reporter",
      "json",
    ]);
    expectOneLineRefusal(merged, /nested deeper than 512 levels/);
    expectOneLineRefusal(await cli(["diff", path, path]), /nested deeper than 512 levels/);
  });

  it("a report whose fields hold terminal escapes: the refusal quoting them reaches the terminal without them", async () => {
    const one = file(
      "escape-1.json",
      crafted((r) => (r.spec.version = "\u001b]0;owned\u0007\u001b[2J")),
    );
    const two = file("escape-2.json", valid);
    const merged = await cli(["merge-reports", one, two, "--report-dir", join(root, "escape")]);
    expect(merged.code).toBe(2);
    expect(merged.err).toMatch(/different description/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be there
    expect(merged.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it("a valid report full of markup merges into a summary.md where none of it is live", async () => {
    const hostile = crafted((r) => {
      r.runId = "[x](javascript:alert(1)) @octocat <img src=https://example.invalid/p.png>";
      r.target.baseUrl = "https://example.invalid/v4 ![i](https://example.invalid/i.png)";
      r.suites[0].title = `${hostileLabel} [click](javascript:alert(2)) ![p](https://example.invalid/p.png) @team`;
      r.spec.version = "</code><script>x</script>";
    });
    const reportDir = join(root, "hostile-merged");
    const merged = await cli([
      "merge-reports",
      file("hostile.json", hostile),
      "--report-dir",
      reportDir,
      "--reporter",
      "markdown,html",
    ]);
    expect([0, 1], merged.err).toContain(merged.code);
    const summary = readFileSync(join(reportDir, "latest", "summary.md"), "utf8");
    // Outside code spans nothing is markup: drop the spans and look at what is left.
    const bare = summary.replace(/(`+)(?:(?!\1).)*?\1/g, "");
    expect(bare).not.toMatch(/<script|<img|\]\(javascript:|!\[|(^|[^\u200b])@(octocat|team)\b/);
    const html = readFileSync(join(reportDir, "latest", "report.html"), "utf8");
    expect(html).not.toMatch(/<script>x<\/script>|<img src=x|href="javascript:/);
  });
});

describe("recordings conform cannot judge (verify)", () => {
  const har = (entry: object) => ({ log: { version: "1.2", entries: [entry] } });
  const request = (url?: unknown) => ({ method: "GET", ...(url === undefined ? {} : { url }), headers: [] });
  const answered = { status: 200, headers: [], content: { text: "{}" } };
  it.each([
    ["a relative URL", har({ request: request("/v4/profile"), response: answered })],
    ["no URL", har({ request: request(), response: answered })],
    ["a URL of numbers", har({ request: request(12), response: answered })],
    ["a file: URL", har({ request: request("file:///etc/passwd"), response: answered })],
    ["no request", har({ response: answered })],
    ["a status of text", har({ request: request("https://x.test/v4/profile"), response: { status: 9999 } })],
    ["a method of markup", har({ request: { method: "<b>", url: "https://x.test/v4/profile" } })],
  ])("refuses a HAR entry with %s in one line (exit 2)", async (name, content) => {
    const path = file(`${name.replace(/\W+/g, "-")}.har`, content);
    const result = await cli(["verify", path, "--reporter", "json", "--report-dir", join(root, "v")]);
    expectOneLineRefusal(result, /exchange 1 has no|neither a HAR|not a HAR/);
  });

  it("refuses a cassette interaction with a relative URL", async () => {
    const path = file(
      "relative.yaml",
      "version: 2\ninteractions:\n  - request: {url: /v4/profile, method: GET}\n    response: {code: 200, body: '{}'}\n",
    );
    const result = await cli(["verify", path, "--reporter", "json", "--report-dir", join(root, "v")]);
    expectOneLineRefusal(result, /exchange 1 has no absolute http\(s\) URL/);
  });
});

describe("descriptions and cassettes of the wrong shape", () => {
  const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  it.each([
    [
      "spec",
      "deep.json",
      `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{},"x":${deep(200_000)}}`,
    ],
    ["spec", "deep.yaml", `openapi: 3.1.0\ninfo: {title: x, version: "1"}\npaths: {}\nx: ${deep(100_000)}\n`],
    ["spec", "list.yaml", "- openapi: 3.1.0\n"],
    ["spec", "text.yaml", "just some text\n"],
    ["verify", "deep-cassette.yaml", `version: 2\ninteractions: ${deep(100_000)}\n`],
    ["verify", "broken.yaml", "interactions: [\n"],
    ["verify", "deep.har", `{"log":{"entries":${deep(200_000)}}}`],
  ])("%s %s: refused in one line (exit 2)", async (command, name, text) => {
    const path = file(name, text);
    const result = await cli([
      command,
      path,
      ...(command === "verify" ? ["--report-dir", join(root, "v")] : []),
    ]);
    expectOneLineRefusal(result, /cannot load|invalid API description|not a|neither a HAR|exchange 1/);
  });
});

describe("config files of the wrong shape", () => {
  it.each([
    ["a list", "[1, 2]", /it must hold an object of options/],
    [
      "an option as an object",
      '{"check": {"a": 1}}',
      /"check" must be a text, a number, true or false, or a list/,
    ],
    ["a list of objects", '{"suite": [{"a": 1}]}', /"suite" must be a text/],
    ["suite-options as text", '{"suite-options": "x"}', /"suite-options" must be an object of settings/],
    ["broken JSON", '{"seed": ', /is not valid/],
  ])("--config holding %s: refused in one line (exit 2)", async (name, text, message) => {
    const path = file(`config-${name.replace(/\W+/g, "-")}.json`, text);
    expectOneLineRefusal(await cli(["run", "--config", path]), message);
  });

  it("--config in YAML with an alias bomb: refused in one line (exit 2)", async () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let level = 0; level < 12; level++)
      bomb.push(
        `${String.fromCharCode(98 + level)}: &${String.fromCharCode(98 + level)} [${Array(9)
          .fill(`*${String.fromCharCode(97 + level)}`)
          .join(", ")}]`,
      );
    const path = file("bomb.yaml", `${bomb.join("\n")}\n`);
    expectOneLineRefusal(await cli(["run", "--config", path]), /config file .*bomb.yaml is not valid/);
  });
});

describe("inputs that never end or are too large", () => {
  const fifo = join(root, "fifo");
  const sparse = join(root, "sparse.json");
  beforeAll(() => {
    execFileSync("mkfifo", [fifo]);
    writeFileSync(sparse, "");
    // 3 GiB of nothing on disk: a reader without a bound would take it whole.
    truncateSync(sparse, 3 * 1024 ** 3);
  });

  it.each([
    ["--config on a FIFO", () => ["run", "--config", fifo], /config file .*fifo is a FIFO, not a file/],
    [
      "--config on a 3 GiB file",
      () => ["run", "--config", sparse],
      /config file .* is 3072 MiB, above the 1 MiB/,
    ],
    ["--config on a directory", () => ["run", "--config", root], /config file .* is a directory, not a file/],
    ["spec on a FIFO", () => ["spec", fifo], /cannot load .*fifo: it is a FIFO, not a file/],
    ["spec on a 3 GiB file", () => ["spec", sparse], /is 3072 MiB, above the 32 MiB/],
    ["verify on a FIFO", () => ["verify", fifo], /fifo: is a FIFO, not a file/],
    ["merge-reports on a FIFO", () => ["merge-reports", fifo], /fifo: is a FIFO, not a file/],
    ["diff on a 3 GiB report", () => ["diff", sparse, sparse], /is 3072 MiB, above the 128 MiB/],
    ["--baseline on a FIFO", () => ["run", "--baseline", fifo], /--baseline .*fifo: is a FIFO, not a file/],
    [
      "cleanup --from-report on a FIFO",
      () => [
        "cleanup",
        "--from-report",
        fifo,
        "--base-url",
        "http://127.0.0.1:9/v4",
        "--token",
        "t0ken-for-test",
      ],
      /--from-report .*fifo .*is a FIFO, not a file/,
    ],
  ])("%s: refused in one line (exit 2)", async (_name, args, message) => {
    expectOneLineRefusal(await cli(args()), message);
  });

  it.each([
    ["a path under a regular file", join(file("plain", "x"), "reports")],
    ["a directory /proc does not let anyone make", "/proc/self/conform-test"],
  ])("--report-dir on %s: refused in one line (exit 2), nothing written", async (_name, dir) => {
    const before = readdirSync(root).sort();
    const result = await cli(["run", "--report-dir", dir, "--spec", bundledSpecPath, "--suite", "none"]);
    expectOneLineRefusal(result, /--report-dir: .* cannot be written \((ENOTDIR|ENOENT)\)/);
    expect(readdirSync(root).sort()).toEqual(before);
  });
});

describe("a report directory of its own", () => {
  it("a merge writes only under --report-dir", async () => {
    const reportDir = join(root, "only-here");
    mkdirSync(reportDir);
    const fine = file("fine.json", valid);
    const before = readdirSync(root).sort();
    await cli(["merge-reports", fine, "--report-dir", reportDir, "--reporter", "json"]);
    expect(readdirSync(root).sort()).toEqual(before);
    expect(readdirSync(reportDir).length).toBeGreaterThan(0);
  });
});
