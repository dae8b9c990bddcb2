/**
 * One self-contained HTML page (`report.html`): inline CSS and a little inline JS, no network (its Content Security
 * Policy allows nothing but its own inline style and its one script, by hash). It shows the summary, a table of
 * suites and cases filterable by text and status, the failure groups largest first (check, count, shape, operations,
 * links to the first cases), each failure's details, open (checks with expected/actual and their group, request and
 * response for the exchanges the engine kept, the curl line, seed and replay), a chart of results per suite and one of latencies (inline SVG), and
 * operation coverage. With `--baseline`, a section groups the failure groups as the engine said: new (they fail the
 * exit code), known (they do not) and fixed (the baseline's groups that no longer fail). Every interpolated string is HTML-escaped by the `html` template: bodies come from targets
 * that may be hostile.
 * @module
 */
import { createHash } from "node:crypto";
import type { BaselineComparison, CaseFinished, FailureGroup } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { coverageLine, summarizeTable } from "../runner/coverage-summary.ts";
import { latencyChart, suiteResultsChart } from "./_internals/charts.ts";
import { coverageCells } from "./_internals/coverage-table.ts";
import { curlLine } from "./_internals/curl.ts";
import { formatDuration } from "./_internals/durations.ts";
import { html, type SafeHtml, trusted } from "./_internals/escape-html.ts";
import {
  failedChecks,
  firstMessage,
  groupOperations,
  groupSize,
  repeatNote,
} from "./_internals/failure-text.ts";
import { createFileReporter } from "./_internals/file-reporter.ts";
import { notShownLines, notShownTitle } from "./_internals/not-shown-text.ts";
import { labelPrefixesOf, type RunRecord, type SuiteStatus, totalOf } from "./_internals/run-record.ts";
import { prettyValue } from "./_internals/text.ts";
import type { HtmlReporterOptions, Reporter, ReporterOptions } from "./types.ts";

export const htmlReportFile = "report.html";

const styles = `
:root{--passed:#1a7f37;--failed:#cf222e;--errored:#8b0000;--skipped:#8c959f;--unfinished:#bf8700;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--panel:#f6f8fa}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1200px;margin:0 auto;padding:16px 24px 48px}h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:12px 0 6px}h4{font-size:13px;margin:10px 0 4px;color:var(--muted)}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600;font-size:13px;vertical-align:middle}
.badge.passed{background:var(--passed)}.badge.failed{background:var(--failed)}.badge.errored{background:var(--errored)}.badge.interrupted,.badge.incomplete,.badge.unfinished{background:var(--unfinished)}.badge.skipped,.badge.not-run{background:var(--skipped)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}.card{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 14px;min-width:110px}.card b{display:block;font-size:20px}.card.failed b,.card.errored b{color:var(--failed)}.card.passed b{color:var(--passed)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(420px,100%),1fr));gap:16px}figure{margin:0;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px}figcaption{font-weight:600;margin-bottom:4px}
svg text{font-size:11px;fill:var(--fg)}svg text.count{fill:var(--muted)}svg .passed{fill:var(--passed)}svg .failed{fill:var(--failed)}svg .errored{fill:var(--errored)}svg .skipped{fill:var(--skipped)}svg .interrupted{fill:var(--unfinished)}.latency-bar rect{fill:#0969da}svg .axis{stroke:var(--line)}
.filters{display:flex;gap:8px;align-items:center;margin:8px 0}.filters input{flex:1;max-width:420px;padding:5px 8px;border:1px solid var(--line);border-radius:6px}.filters select{padding:5px;border:1px solid var(--line);border-radius:6px}#filter-count{color:var(--muted)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{background:var(--panel)}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.suite-row td{background:#eef1f4;font-weight:600}tr.case-row td:nth-child(2){padding-left:20px}.msg{color:var(--muted);word-break:break-word}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-all;margin:4px 0}
details.failure{border:1px solid var(--line);border-left:4px solid var(--failed);border-radius:6px;margin:10px 0;padding:4px 12px}details.failure.errored{border-left-color:var(--errored)}details.failure>summary{cursor:pointer;font-weight:600;padding:4px 0}
.check{margin:8px 0}.group-link{font-size:12px;margin-left:6px}td.shape{font-family:ui-monospace,monospace;word-break:break-word}.check .id{font-family:ui-monospace,monospace;color:var(--failed)}.copy{float:right;font-size:12px}
.coverage-bar{height:14px;background:var(--line);border-radius:7px;overflow:hidden;max-width:420px}.coverage-bar span{display:block;height:100%;background:var(--passed)}
.status-chip{display:inline-block;font-family:ui-monospace,monospace;font-size:12px;padding:0 6px;margin:0 3px 2px 0;border-radius:4px;background:var(--panel);border:1px solid var(--line)}.status-chip.s5{color:var(--failed)}.status-chip.s4{color:#9a6700}
tr.unexercised td{color:var(--muted)}.hidden{display:none}footer{margin-top:32px;color:var(--muted);font-size:12px}
.scroll-x{overflow-x:auto;max-width:100%}code,.check,details.failure{overflow-wrap:anywhere}
@media (max-width:600px){main{padding:12px 10px 32px}.card{min-width:0;flex:1 1 40%}th,td{padding:4px 5px}}
`;

// Runs in the page: filtering, opening a failure when its link is followed, copying a curl line. It reads only the
// DOM the report wrote (textContent, data attributes) and never writes markup.
const script = `
(() => {
  const text = document.getElementById("filter-text");
  const status = document.getElementById("filter-status");
  const count = document.getElementById("filter-count");
  const rows = Array.from(document.querySelectorAll("tr.case-row"));
  const suites = Array.from(document.querySelectorAll("tr.suite-row"));
  function apply() {
    const query = text.value.trim().toLowerCase();
    const wanted = status.value;
    let shown = 0;
    const visibleSuites = new Set();
    for (const row of rows) {
      const match = (wanted === "all" || row.dataset.status === wanted) && (!query || row.dataset.search.includes(query));
      row.classList.toggle("hidden", !match);
      if (match) { shown++; visibleSuites.add(row.dataset.suite); }
    }
    for (const row of suites) row.classList.toggle("hidden", !visibleSuites.has(row.dataset.suite) && (query !== "" || wanted !== "all"));
    count.textContent = shown + " of " + rows.length + " cases";
  }
  text.addEventListener("input", apply);
  status.addEventListener("change", apply);
  function openTarget() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target && target.tagName === "DETAILS") target.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  for (const button of document.querySelectorAll("button.copy")) {
    button.addEventListener("click", () => {
      const source = document.getElementById(button.dataset.copy);
      if (source && navigator.clipboard) navigator.clipboard.writeText(source.textContent).then(() => { button.textContent = "copied"; }, () => {});
    });
  }
  apply();
})();
`;

const scriptHash = createHash("sha256").update(script).digest("base64");

/** Allows only this page's inline style and its one script; no fetch, no images from anywhere, no forms. */
export const htmlContentSecurityPolicy = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;

function statusBadge(status: SuiteStatus | "interrupted" | "unfinished"): SafeHtml {
  return html`<span class="badge ${status}">${status}</span>`;
}

function headersText(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

function exchangeDetails(exchange: Exchange, insecure: boolean, anchor: string): SafeHtml {
  const { request, response } = exchange;
  const requestText = `${request.method} ${request.url}\n${headersText(request.headers)}${request.body === undefined ? "" : `\n\n${request.body}`}`;
  const responseText = response
    ? `${response.status}\n${headersText(response.headers)}\n\n${response.text}${response.truncated ? `\n\n… (truncated by the client; ${response.bytes} bytes in all)` : ""}`
    : `no response${exchange.error ? `: ${exchange.error.code}: ${exchange.error.message}` : ""}`;
  const curlId = `${anchor}-curl-${exchange.id}`;
  const operation = exchange.operationId ? html` <code>${exchange.operationId}</code>` : html``;
  return html`<div class="exchange" data-exchange="${exchange.id}">
<h3>Exchange #${exchange.id}${operation} · ${formatDuration(exchange.timings.totalMs)}${exchange.retries ? ` · ${exchange.retries} retries after 429` : ""}</h3>
<h4>Request</h4><pre class="request">${requestText}</pre>
<h4>Response</h4><pre class="response">${responseText}</pre>
<h4>Reproduce <button type="button" class="copy" data-copy="${curlId}">copy</button></h4><pre class="curl" id="${curlId}">${curlLine(request, { insecure })}</pre>
</div>`;
}

function failureDetails(event: CaseFinished, index: number, insecure: boolean): SafeHtml {
  const anchor = `failure-${index}`;
  const checks = failedChecks(event).map(
    (check) =>
      html`<div class="check"><span class="id">${check.result.checkId}</span>: <span class="message">${check.message}${repeatNote(check.result)}</span>${
        check.result.group
          ? html`<a class="group-link" href="#group-${check.result.group}">group ${check.result.group}</a>`
          : html``
      }${
        check.hasExpected
          ? html`<h4>Expected</h4><pre class="expected">${prettyValue(check.expected)}</pre>`
          : html``
      }${check.hasActual ? html`<h4>Actual</h4><pre class="actual">${prettyValue(check.actual)}</pre>` : html``}</div>`,
  );
  const error = event.error
    ? html`<p class="error"><b>${event.error.code}</b>: ${event.error.message}${
        event.errorGroup
          ? html`<a class="group-link" href="#group-${event.errorGroup}">group ${event.errorGroup}</a>`
          : html``
      }</p>`
    : html``;
  const reproduction = event.reproduction
    ? html`<h3>Generated case</h3><dl class="meta reproduction"><dt>seed</dt><dd class="seed">${event.reproduction.seed}</dd>${
        event.reproduction.path === undefined
          ? html``
          : html`<dt>path</dt><dd>${event.reproduction.path}</dd>`
      }</dl>${
        event.reproduction.counterexample === undefined
          ? html``
          : html`<h4>Shrunk counterexample</h4><pre class="counterexample">${prettyValue(event.reproduction.counterexample)}</pre>`
      }${event.reproduction.replay ? html`<h4>Replay</h4><pre class="replay">${event.reproduction.replay}</pre>` : html``}`
    : html``;
  const logs = event.logs?.length
    ? html`<h3>Log</h3><pre class="logs">${event.logs.join("\n")}</pre>`
    : html``;
  // Open from the start; the summary names the case only: the message is told once, in the check below it.
  return html`<details class="failure ${event.status}" id="${anchor}" data-suite="${event.suiteId}" data-case="${event.caseId}" open>
<summary>${statusBadge(event.status)} ${event.suiteId} › ${event.title} <span class="msg">${event.caseId}</span></summary>
${error}${checks}${reproduction}${logs}${event.exchanges.map((exchange) => exchangeDetails(exchange, insecure, anchor))}
</details>`;
}

function groupRow(group: FailureGroup, anchors: ReadonlyMap<string, string>): SafeHtml {
  const first = group.firstCases.map((one) => {
    const anchor = anchors.get(`${one.suiteId}\u0000${one.caseId}`);
    return anchor
      ? html`<a href="#${anchor}">${one.suiteId}/${one.caseId}</a> `
      : html`<span>${one.suiteId}/${one.caseId}</span> `;
  });
  const more = group.cases - group.firstCases.length;
  return html`<tr class="group-row" id="group-${group.id}"><td class="num">${group.failures}</td><td><code>${group.checkId}</code> <span class="msg">${group.id}</span></td><td class="shape">${group.shape}</td><td>${groupSize(group)}${
    group.operations.length ? html`<div class="msg">${groupOperations(group)}</div>` : html``
  }</td><td>${first}${more > 0 ? html`<span class="msg">… and ${more} more</span>` : html``}</td></tr>`;
}

/** The baseline section: the run's groups the engine called new and known (linked to their rows), and the fixed ones. */
function baselineSection(baseline: BaselineComparison, groups: readonly FailureGroup[]): SafeHtml {
  const item = (group: FailureGroup) =>
    html`<li><a href="#group-${group.id}"><code>${group.checkId}</code></a> ${group.shape} <span class="msg">${group.failures}× · group ${group.id}</span></li>`;
  const list = (title: string, id: string, items: readonly SafeHtml[]) =>
    html`<h3>${title} (${items.length})</h3>${items.length === 0 ? html`<p class="empty">None.</p>` : html`<ul id="${id}">${items}</ul>`}`;
  const newIds = new Set(baseline.new);
  const knownIds = new Set(baseline.known);
  const onlyKnown = baseline.new.length === 0 && baseline.known.length > 0;
  return html`<section id="baseline">
<h2>Against the baseline</h2>
<p><code>${baseline.source}</code>: ${baseline.new.length} new, ${baseline.known.length} known, ${baseline.fixed.length} fixed${onlyKnown ? " (only known failures: the exit code does not fail)" : ""}</p>
${list(
  "New: these fail the exit code",
  "baseline-new",
  groups.filter((group) => newIds.has(group.id)).map(item),
)}
${list(
  "Known: in the baseline, they do not fail the exit code",
  "baseline-known",
  groups.filter((group) => knownIds.has(group.id)).map(item),
)}
${list(
  "Fixed: in the baseline, no longer failing",
  "baseline-fixed",
  baseline.fixed.map(
    (group) =>
      html`<li><code>${group.checkId}</code> ${group.shape} <span class="msg">group ${group.id} · ${group.suites.join(", ")}</span></li>`,
  ),
)}
</section>`;
}

/** A row per suite, then a row per case (finished, or still open when the run stopped). */
function suiteRows(record: RunRecord, failureAnchors: ReadonlyMap<CaseFinished, string>) {
  const open = record.openCases;
  return [...record.suites.values()].map((suite) => {
    const suiteCounts = record.suiteCounts(suite);
    const suiteStatus = record.suiteStatus(suite);
    const caseRows = suite.cases.map((event) => {
      const anchor = failureAnchors.get(event);
      const message =
        event.status === "passed"
          ? ""
          : event.status === "skipped"
            ? (event.skipReason ?? "")
            : firstMessage(event);
      const search = `${suite.id} ${suite.title} ${event.caseId} ${event.title} ${message}`.toLowerCase();
      const checks = event.passedChecks + event.results.length;
      return html`<tr class="case-row" data-status="${event.status}" data-suite="${suite.id}" data-search="${search}">
<td>${statusBadge(event.status)}</td><td>${event.title} <span class="msg">${event.caseId}</span>${
        message ? html`<div class="msg">${message}</div>` : html``
      }</td><td class="num">${formatDuration(event.durationMs)}</td><td class="num">${event.passedChecks}/${checks} checks</td><td>${
        anchor ? html`<a href="#${anchor}">details</a>` : html``
      }</td></tr>`;
    });
    const openRows = open
      .filter((one) => one.suiteId === suite.id)
      .map(
        (
          one,
        ) => html`<tr class="case-row" data-status="unfinished" data-suite="${suite.id}" data-search="${`${suite.id} ${suite.title} ${one.caseId} ${one.title}`.toLowerCase()}">
<td>${statusBadge("unfinished")}</td><td>${one.title} <span class="msg">${one.caseId}</span><div class="msg">the run stopped before this case finished</div></td><td class="num">-</td><td class="num">-</td><td></td></tr>`,
      );
    return html`<tr class="suite-row" data-suite="${suite.id}"><td>${statusBadge(suiteStatus)}</td><td>${suite.id} <span class="msg">${suite.title}</span></td><td class="num">${
      suiteStatus === "not-run" ? "not run" : formatDuration(record.suiteDurationMs(suite))
    }</td><td class="num">${suiteCounts.passed}/${totalOf(suiteCounts)} cases</td><td></td></tr>${caseRows}${openRows}`;
  });
}

/** The coverage line, `--fail-under`'s verdict, and the table: a row per operation with what it got. */
function coverageSection(record: RunRecord) {
  const coverage = record.coverage();
  const exercised = record.exercisedOperations();
  const percent = coverage.total === 0 ? 0 : Math.round((exercised / coverage.total) * 100);
  const whole = summarizeTable(coverage.operations, coverage.total);
  const shortfall = record.finished?.failUnder?.message;
  const rows = [...coverage.operations]
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    .map((operation) => {
      const [, , , requested, valid, invalid, chained, suites, checks] = coverageCells(operation);
      return html`<tr class="${operation.statuses.length ? "exercised" : "unexercised"}" data-operation="${operation.operationId}"><td>${operation.method}</td><td><code>${operation.path}</code></td><td>${operation.operationId}</td><td>${
        operation.statuses.length
          ? operation.statuses.map(
              (code) => html`<span class="status-chip s${Math.floor(code / 100)}">${code}</span>`,
            )
          : "not exercised"
      }</td><td class="requested">${requested}</td><td class="num valid">${valid}</td><td class="num invalid">${invalid}</td><td class="chained">${chained}</td><td class="msg">${suites}</td><td class="msg">${checks}</td></tr>`;
    });
  return html`<section id="coverage">
<h2>Operation coverage</h2>
<p>${exercised} of ${coverage.total} operations exercised (${percent} %) · statuses seen: ${record.statusesSeen().join(", ") || "none"}</p>
<p id="coverage-line"><b>${coverageLine(whole)}</b></p>
${shortfall ? html`<p class="incomplete" id="fail-under"><b>${shortfall}</b></p>` : html``}
<div class="coverage-bar"><span style="width:${percent}%"></span></div>
<div class="scroll-x"><table id="coverage-table"><thead><tr><th>Method</th><th>Path</th><th>Operation</th><th>Statuses seen</th><th>Requested</th><th class="num">Valid 2xx</th><th class="num">Invalid refused</th><th>Chained</th><th>Suites</th><th>Checks</th></tr></thead><tbody>${rows}</tbody></table></div>
</section>`;
}

/** What traffic conform did not make never showed (proxy, verify); nothing for a run. */
function notShownSection(record: RunRecord) {
  const notShown = record.finished?.notShown;
  if (!notShown) return html``;
  return html`<section id="not-shown">
<h2>${notShownTitle}</h2>
<ul>${notShownLines(notShown).map((line) => html`<li>${line}</li>`)}</ul>
</section>`;
}

/** The page's heading, the run's state when it is not whole, and its facts. */
function headerHtml(record: RunRecord, title: string) {
  const started = record.started!;
  const labels = labelPrefixesOf(started);
  const counts = record.counts;
  const status = record.status;
  return html`<header>
<h1>${title} ${record.snapshot && counts.passed + counts.failed + counts.errored === 0 ? html`<span class="badge skipped">no traffic judged yet</span>` : statusBadge(status)}</h1>
${record.ended ? html`` : html`<p class="incomplete"><b>The run stopped before it finished: this report holds what it reported until then.</b></p>`}
${record.snapshot ? html`<p class="incomplete" id="snapshot"><b>Snapshot ${record.snapshot.sequence}, taken at ${record.snapshot.takenAt} while the run goes on: what it judged until then. The report written when it stops replaces this one.</b></p>` : html``}
<dl class="meta" id="summary">
<dt>run</dt><dd id="run-id">${started.runId}</dd>
<dt>target</dt><dd>${started.target.baseUrl}${started.target.embedded ? " (embedded reference server)" : ""}</dd>
<dt>spec</dt><dd>${started.spec.source} · version ${started.spec.version} · ${started.spec.operations} operations</dd>
<dt>seed</dt><dd>${started.seed}</dd>
${labels.length === 0 ? html`` : html`<dt>labels</dt><dd id="labels">${labels.map((prefix) => `${prefix}-*`).join(", ")}</dd>`}
<dt>started</dt><dd>${started.startedAt}</dd>
<dt>duration</dt><dd>${record.durationMs === undefined ? "-" : formatDuration(record.durationMs)}</dd>
<dt>tool</dt><dd>conform ${started.toolVersion} on Node ${started.nodeVersion}</dd>
</dl>
</header>`;
}

export function htmlReport(record: RunRecord, own: HtmlReporterOptions = {}): string {
  const started = record.started;
  if (!started) return "";
  const insecure = started.target.embedded;
  const title = own.title ?? "conform report";
  const failures = record.failures();
  const failureAnchors = new Map(failures.map((event, index) => [event, `failure-${index}`]));
  const caseAnchors = new Map(
    failures.map((event, index) => [`${event.suiteId}\u0000${event.caseId}`, `failure-${index}`]),
  );
  const groups = record.groups();
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${htmlContentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}: ${started.runId}</title>
<style>${trusted(styles)}</style>
</head>
<body>
<main>
${headerHtml(record, title)}
${totalsSection(record)}
${chartsSection(record)}
${casesSection(suiteRows(record, failureAnchors))}
${groupsSection(groups, caseAnchors)}
${record.finished?.baseline ? baselineSection(record.finished.baseline, groups) : html``}
<section id="failures">
<h2>Failures (${failures.length})</h2>
${failures.length === 0 ? html`<p class="empty">No failures.</p>` : failures.map((event, index) => failureDetails(event, index, insecure))}
</section>
${coverageSection(record)}
${notShownSection(record)}
${notesSection(record)}
<footer>Written by conform ${started.toolVersion}. Secrets were redacted when the exchanges were recorded; the curl lines read the token from <code>$CONFORM_TOKEN</code>.</footer>
</main>
<script>${trusted(script)}</script>
</body>
</html>
`;
  return page.value;
}

/** The cards of totals: cases by status, exchanges, 429 answers, operations covered, median latency. */
function totalsSection(record: RunRecord): SafeHtml {
  const counts = record.counts;
  const coverage = record.coverage();
  const exercised = record.exercisedOperations();
  const percent = coverage.total === 0 ? 0 : Math.round((exercised / coverage.total) * 100);
  const latency = record.latency.summary();
  return html`<section class="cards" id="totals">
<div class="card passed"><b>${counts.passed}</b>passed</div>
<div class="card failed"><b>${counts.failed}</b>failed</div>
<div class="card errored"><b>${counts.errored}</b>errored</div>
<div class="card skipped"><b>${counts.skipped}</b>skipped</div>
${counts.interrupted > 0 ? html`<div class="card interrupted"><b>${counts.interrupted}</b>interrupted</div>` : html``}
<div class="card"><b>${record.exchanges}</b>exchanges</div>
<div class="card"><b>${record.rateLimited}</b>429 answers (${record.retries} retries)</div>
<div class="card"><b>${percent} %</b>operations covered</div>
<div class="card"><b>${latency.p50Ms === null ? "-" : formatDuration(latency.p50Ms)}</b>median latency</div>
</section>`;
}

/** Results per suite and the latency histogram. */
function chartsSection(record: RunRecord): SafeHtml {
  const latency = record.latency.summary();
  const suites = [...record.suites.values()];
  return html`<section class="charts">
<figure><figcaption>Results per suite</figcaption>${suiteResultsChart(suites.map((suite) => ({ id: suite.id, counts: record.suiteCounts(suite) })))}</figure>
<figure><figcaption>Latency (${latency.count} exchanges${latency.p90Ms === null ? "" : `; p90 ${formatDuration(latency.p90Ms)}, p99 ${formatDuration(latency.p99Ms ?? 0)}, max ${formatDuration(latency.maxMs ?? 0)}`})</figcaption>${latencyChart(latency.buckets)}</figure>
</section>`;
}

/** The table of suites and cases, with its filters. */
function casesSection(rows: ReturnType<typeof suiteRows>): SafeHtml {
  return html`<section id="cases">
<h2>Suites and cases</h2>
<div class="filters">
<input id="filter-text" type="search" placeholder="Filter by suite, case or message" aria-label="Filter cases">
<select id="filter-status" aria-label="Status">
<option value="all">all statuses</option><option value="failed">failed</option><option value="errored">errored</option><option value="skipped">skipped</option><option value="passed">passed</option><option value="interrupted">interrupted</option><option value="unfinished">unfinished</option>
</select>
<span id="filter-count"></span>
</div>
<div class="scroll-x"><table id="case-table">
<thead><tr><th>Status</th><th>Suite / case</th><th class="num">Duration</th><th class="num">Passed</th><th></th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
</section>`;
}

function groupsSection(groups: readonly FailureGroup[], caseAnchors: ReadonlyMap<string, string>): SafeHtml {
  return html`<section id="groups">
<h2>Failure groups (${groups.length}), largest first</h2>
${
  groups.length === 0
    ? html`<p class="empty">No failures.</p>`
    : html`<div class="scroll-x"><table id="group-table"><thead><tr><th class="num">Failures</th><th>Check</th><th>Message shape</th><th>Cases</th><th>First cases</th></tr></thead><tbody>${groups.map((group) => groupRow(group, caseAnchors))}</tbody></table></div>`
}
</section>`;
}

/** The run's warnings and what cleanup left behind, when there are any. */
function notesSection(record: RunRecord): SafeHtml {
  const cleanup = record.finished?.cleanup;
  const notes = [
    ...record.warnings.map((message) => html`<li class="warning">⚠ ${message}</li>`),
    ...(cleanup?.failed ?? []).map(
      (one) => html`<li class="cleanup-failed">cleanup left behind: <code>${one}</code></li>`,
    ),
  ];
  return notes.length > 0
    ? html`<section id="notes"><h2>Warnings and cleanup</h2><ul>${notes}</ul></section>`
    : html``;
}

export function createHtmlReporter(options: ReporterOptions, own: HtmlReporterOptions = {}): Reporter {
  return createFileReporter(options, {
    name: "html",
    file: htmlReportFile,
    render: (record) => htmlReport(record, own),
  });
}
