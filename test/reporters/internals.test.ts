import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import type { CheckResult, Reproduction } from "../../src/core/result.ts";
import { curlLine, shellQuote } from "../../src/reporters/_internals/curl.ts";
import { formatDuration, toSeconds } from "../../src/reporters/_internals/durations.ts";
import { escapeHtml, html, jsonForScript } from "../../src/reporters/_internals/escape-html.ts";
import { caseDetailLines, failureLines } from "../../src/reporters/_internals/failure-text.ts";
import { LatencyHistogram } from "../../src/reporters/_internals/latency-histogram.ts";
import { codeSpan, escapeMarkdown } from "../../src/reporters/_internals/markdown.ts";
import { terminalSafe } from "../../src/reporters/_internals/text.ts";
import { escapeXml, escapeXmlAttribute } from "../../src/reporters/_internals/xml.ts";

/** What bash makes of a command line's words: each argument on its own line, NUL-separated. */
function shellWords(line: string): string[] {
  const out = execFileSync(
    "bash",
    ["--norc", "--noprofile", "-c", `args() { printf '%s\\0' "$@"; }; ${line.replace(/^curl /, "args ")}`],
    {
      env: { CONFORM_TOKEN: "tok-123", PATH: process.env.PATH ?? "/usr/bin:/bin" },
    },
  ).toString();
  return out.split("\0").slice(0, -1);
}

describe("xml escaping", () => {
  it("escapes markup in text and attributes", () => {
    expect(escapeXml(`a < b && c > "d"`)).toBe(`a &lt; b &amp;&amp; c &gt; "d"`);
    expect(escapeXmlAttribute(`"x" & 'y' <z>`)).toBe("&quot;x&quot; &amp; &apos;y&apos; &lt;z&gt;");
  });

  it("keeps line breaks in attributes as character references", () => {
    expect(escapeXmlAttribute("a\nb\tc\rd")).toBe("a&#10;b&#9;c&#13;d");
  });

  it("turns characters XML 1.0 cannot carry into visible text", () => {
    expect(escapeXml("nul\u0000 esc\u001b bell\u0007 \uFFFF \uD800 ok\t\n")).toBe(
      "nul\\u0000 esc\\u001b bell\\u0007 \\uffff \\ud800 ok\t\n",
    );
    expect(escapeXml("emoji 😀 stays")).toBe("emoji 😀 stays");
  });
});

describe("html escaping", () => {
  it("escapes the five characters", () => {
    expect(escapeHtml(`<script>alert('x') & "y"</script>`)).toBe(
      "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;",
    );
    expect(escapeHtml(undefined)).toBe("");
    expect(escapeHtml(42)).toBe("42");
  });

  it("the html template escapes every value but nested templates", () => {
    const hostile = `<img src=x onerror="alert(1)">`;
    const inner = html`<b>${hostile}</b>`;
    expect(html`<p title="${hostile}">${inner}${[hostile, inner]}</p>`.value).toBe(
      `<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"><b>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</b>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;<b>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</b></p>`,
    );
  });

  it("JSON for a script block cannot close the element", () => {
    const text = jsonForScript({ a: "</script><!--" });
    expect(text).not.toContain("<");
    expect(JSON.parse(text)).toEqual({ a: "</script><!--" });
  });
});

describe("durations", () => {
  it("reads as people read them", () => {
    expect(formatDuration(0.5)).toBe("0.50 ms");
    expect(formatDuration(12.4)).toBe("12 ms");
    expect(formatDuration(1250)).toBe("1.25 s");
    expect(formatDuration(31_500)).toBe("31.5 s");
    expect(formatDuration(125_000)).toBe("2 min 05 s");
    expect(formatDuration(3_900_000)).toBe("1 h 05 min");
    expect(formatDuration(Number.NaN)).toBe("-");
  });

  it("JUnit seconds have three decimals and no grouping", () => {
    expect(toSeconds(12.5)).toBe("0.013");
    expect(toSeconds(1_234_567)).toBe("1234.567");
    expect(toSeconds(-1)).toBe("0.000");
  });
});

describe("curl line", () => {
  const request = {
    method: "POST",
    url: "https://127.0.0.1:8443/v4/linode/instances?page=1&page_size=[25]",
    headers: {
      authorization: "Bearer [REDACTED]",
      "content-type": "application/json",
      "x-filter": `{"label":{"+contains":"it's $HOME"}}`,
      host: "127.0.0.1:8443",
      "content-length": "42",
    },
    body: `{"label":"a'b","root_pass":"[REDACTED]","note":"line1\nline2"}`,
  };

  it("puts the token as $CONFORM_TOKEN and never the redaction placeholder", () => {
    const line = curlLine(request, { insecure: true });
    expect(line).toContain(`-H "Authorization: Bearer $CONFORM_TOKEN"`);
    expect(line).not.toMatch(/authorization: Bearer \[REDACTED\]/i);
    expect(line).not.toContain("content-length");
    expect(line).not.toContain("host:");
    expect(line).toMatch(/^curl -X POST --insecure --globoff /);
  });

  it.each([
    ["https://127.0.0.1:8443/v4/regions", true],
    ["http://127.0.0.1:8080/v4/regions", false],
  ])("asks curl to trust a self-signed certificate only over https: %s", (url, insecure) => {
    expect(
      curlLine({ method: "GET", url, headers: {}, body: undefined }, { insecure: true }).includes(
        "--insecure",
      ),
    ).toBe(insecure);
  });

  it("survives the shell word for word (quotes, $, newlines, brackets)", () => {
    const words = shellWords(curlLine(request));
    expect(words).toEqual([
      "-X",
      "POST",
      "--globoff",
      request.url,
      "-H",
      "Authorization: Bearer tok-123",
      "-H",
      "content-type: application/json",
      "-H",
      `x-filter: {"label":{"+contains":"it's $HOME"}}`,
      "--data-raw",
      request.body,
    ]);
  });

  it("uses --head for HEAD and no -X for a plain GET", () => {
    expect(curlLine({ method: "HEAD", url: "https://h/x", headers: {}, body: undefined })).toBe(
      "curl --head https://h/x",
    );
    expect(curlLine({ method: "GET", url: "https://h/x", headers: {}, body: undefined })).toBe(
      "curl https://h/x",
    );
  });

  it("quotes control characters with $'...'", () => {
    expect(shellQuote("a\u001bb'c")).toBe("$'a\\x1bb\\'c'");
    expect(shellWords(`curl ${shellQuote("a\u001bb'c\\d")}`)).toEqual(["a\u001bb'c\\d"]);
  });
});

describe("latency histogram", () => {
  it("stays bounded and reads percentiles from its buckets", () => {
    const histogram = new LatencyHistogram();
    for (let i = 0; i < 10_000; i += 1) histogram.record(i % 100 === 0 ? 2500 : 4);
    histogram.record(Number.NaN);
    histogram.record(-1);
    const summary = histogram.summary();
    expect(summary.count).toBe(10_000);
    expect(summary.buckets).toHaveLength(15);
    expect(summary.p50Ms).toBe(5);
    expect(summary.p99Ms).toBe(5);
    expect(summary.maxMs).toBe(2500);
    expect(summary.minMs).toBe(4);
    expect(histogram.percentile(1)).toBe(2500);
    expect(summary.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(10_000);
  });

  it("says nothing about an empty run", () => {
    expect(new LatencyHistogram().summary()).toMatchObject({ count: 0, p50Ms: null, maxMs: null });
  });
});

describe("terminal and markdown safety", () => {
  it("terminal text cannot carry escape sequences", () => {
    expect(terminalSafe("a\u001b[2Jb\u009bc\nd", true)).toBe("a\\x1b[2Jb\\x9bc d");
    expect(terminalSafe("a\nb")).toBe("a\nb");
  });

  it("code spans hold any text, on one line, with pipes escaped", () => {
    expect(codeSpan("a `b` | c\nd")).toBe("``a `b` \\| c d``");
    expect(codeSpan("`x`")).toBe("`` `x` ``");
    expect(codeSpan("")).toBe("` `");
  });

  it("plain markdown text loses its markup and mentions", () => {
    expect(escapeMarkdown("[x](http://e) <b> @me *y*")).toBe(
      "\\[x\\]\\(http://e\\) &lt;b\\> @\u200bme \\*y\\*",
    );
  });
});

/** A failed case of suite/case with these results and nothing else. */
function failedCase(results: CheckResult[]): CaseFinished {
  return {
    type: "case-finished",
    suiteId: "suite",
    caseId: "case",
    title: "a case",
    tags: [],
    status: "failed",
    durationMs: 1,
    results,
    passedChecks: 0,
    exchanges: [],
    exchangeCount: 0,
  };
}

describe("failure text: reproductions", () => {
  const own = (property: string) => ({
    seed: 7,
    path: "1:0",
    counterexample: { property },
    replay: `conform fuzz things --seed 7 --property 'suite/case/${property}' --path 1:0`,
  });
  const failedResult = (property: string, reproduction?: Reproduction): CheckResult => ({
    checkId: `assert:property: ${property}`,
    exchangeId: undefined,
    outcome: { status: "failed", message: "falsified" },
    ...(reproduction ? { reproduction } : {}),
  });
  const caseWith = (results: CheckResult[], reproduction: Reproduction): CaseFinished => ({
    ...failedCase(results),
    reproduction,
    logs: ["a log line"],
  });

  it("each failure tells its own replay line; the case's is not told again", () => {
    const event = caseWith([failedResult("a", own("a")), failedResult("b", own("b"))], own("a"));
    const text = failureLines(event).join("\n");
    expect(text.match(/replay: /g)).toHaveLength(2);
    expect(text).toContain("--property 'suite/case/a'");
    expect(text).toContain("--property 'suite/case/b'");
    expect(caseDetailLines(event)).toEqual(["  log: a log line"]);
  });

  it.each([
    ["logs wanted", true, ["generated case: seed 7, path 1:0", "  log: a log line"]],
    ["logs not wanted", false, ["generated case: seed 7, path 1:0"]],
  ])("a case whose failures carry none tells the case's reproduction (%s)", (_name, logs, start) => {
    const lines = caseDetailLines(caseWith([failedResult("a")], own("a")), {}, logs);
    expect(lines.filter((line) => !/counterexample|replay/.test(line))).toEqual(start);
    expect(lines.some((line) => line.includes("replay: "))).toBe(true);
  });
});

describe("failure text: an assertion's line", () => {
  const caseFailing = (checkId: string, message: string): CaseFinished =>
    failedCase([{ checkId, exchangeId: undefined, outcome: { status: "failed", message } }]);

  it.each([
    // `t.expect(name, ok)` with no message of its own: its name is said once.
    [
      "assert:getRegions: the default page size is 100",
      "getRegions: the default page size is 100",
      "✗ assert:getRegions: the default page size is 100",
    ],
    ["assert:a page", "answered 400", "✗ assert:a page: answered 400"],
    // The toolkit's `name: what came` (expectBody, expectSuccess): the name is said once.
    [
      "assert:getRegions is a page of the list",
      "getRegions is a page of the list: the body is labelled text/plain, not JSON",
      "✗ assert:getRegions is a page of the list: the body is labelled text/plain, not JSON",
    ],
    ["assert:the list", "the list: answered 500", "✗ assert:the list: answered 500"],
    ["assert:the list", "the listing: answered 500", "✗ assert:the list: the listing: answered 500"],
    ["body-matches-schema", "body-matches-schema", "✗ body-matches-schema: body-matches-schema"],
  ])("%s failing with %j reads %j", (checkId, message, line) => {
    expect(failureLines(caseFailing(checkId, message))[0]?.trim()).toBe(line);
  });
});
