/**
 * The HTML report's two charts, drawn as inline SVG from numbers the run reported: results per suite (stacked
 * horizontal bars) and the latency histogram (vertical bars over the bounded buckets). Labels are escaped text.
 * @internal
 */
import type { Counts } from "../../core/events.ts";
import { formatDuration } from "./durations.ts";
import { html, type SafeHtml } from "./escape-html.ts";
import type { LatencyBucket } from "./latency-histogram.ts";

const segments: readonly { key: keyof Counts; label: string; className: string }[] = [
  { key: "passed", label: "passed", className: "passed" },
  { key: "failed", label: "failed", className: "failed" },
  { key: "errored", label: "errored", className: "errored" },
  { key: "skipped", label: "skipped", className: "skipped" },
  { key: "interrupted", label: "interrupted", className: "interrupted" },
];

const round = (value: number): number => Math.round(value * 10) / 10;

export function suiteResultsChart(
  suites: readonly { readonly id: string; readonly counts: Counts }[],
): SafeHtml {
  const width = 720;
  const labelWidth = 200;
  const barWidth = width - labelWidth - 60;
  const rowHeight = 26;
  const height = Math.max(1, suites.length) * rowHeight + 30;
  const max = Math.max(
    1,
    ...suites.map(
      ({ counts }) => counts.passed + counts.failed + counts.errored + counts.skipped + counts.interrupted,
    ),
  );
  const rows = suites.map(({ id, counts }, index) => {
    const y = index * rowHeight + 4;
    let x = labelWidth;
    const bars = segments.map(({ key, label, className }) => {
      const count = counts[key];
      if (count === 0) return html``;
      const w = round((count / max) * barWidth);
      const bar = html`<rect class="${className}" x="${round(x)}" y="${y}" width="${w}" height="${rowHeight - 8}"><title>${id}: ${count} ${label}</title></rect>`;
      x += w;
      return bar;
    });
    const total = counts.passed + counts.failed + counts.errored + counts.skipped + counts.interrupted;
    const label = id.length > 28 ? `${id.slice(0, 27)}…` : id;
    return html`<g class="suite-bar"><text x="${labelWidth - 8}" y="${y + rowHeight / 2}" text-anchor="end">${label}</text>${bars}<text x="${round(x) + 6}" y="${y + rowHeight / 2}" class="count">${total}</text></g>`;
  });
  const legendY = suites.length * rowHeight + 20;
  const legend = segments.map(
    ({ label, className }, index) =>
      html`<rect class="${className}" x="${labelWidth + index * 90}" y="${legendY - 10}" width="12" height="12"></rect><text x="${labelWidth + index * 90 + 16}" y="${legendY}">${label}</text>`,
  );
  return html`<svg id="chart-suites" role="img" aria-label="Results per suite" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">${rows}${legend}</svg>`;
}

function bucketLabel(bucket: LatencyBucket, previous: number | undefined): string {
  if (bucket.leMs === null) return `> ${formatDuration(previous ?? 0)}`;
  return `≤ ${formatDuration(bucket.leMs)}`;
}

export function latencyChart(buckets: readonly LatencyBucket[]): SafeHtml {
  const first = buckets.findIndex((bucket) => bucket.count > 0);
  if (first === -1) return html`<p class="empty">No exchanges were recorded.</p>`;
  const last = buckets.findLastIndex((bucket) => bucket.count > 0);
  const shown = buckets.slice(first, last + 1);
  const width = 720;
  const height = 220;
  const plotTop = 20;
  const plotHeight = 150;
  const slot = (width - 40) / shown.length;
  const max = Math.max(1, ...shown.map((bucket) => bucket.count));
  const bars = shown.map((bucket, index) => {
    const h = round((bucket.count / max) * plotHeight);
    const x = round(20 + index * slot + slot * 0.1);
    const y = round(plotTop + plotHeight - h);
    const previous = buckets[first + index - 1]?.leMs ?? undefined;
    const label = bucketLabel(bucket, previous ?? undefined);
    return html`<g class="latency-bar"><rect x="${x}" y="${y}" width="${round(slot * 0.8)}" height="${h}"><title>${label}: ${bucket.count}</title></rect><text x="${round(x + slot * 0.4)}" y="${y - 4}" text-anchor="middle" class="count">${bucket.count}</text><text x="${round(x + slot * 0.4)}" y="${plotTop + plotHeight + 16}" text-anchor="middle">${label}</text></g>`;
  });
  return html`<svg id="chart-latency" role="img" aria-label="Latency histogram" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet"><line x1="20" x2="${width - 20}" y1="${plotTop + plotHeight}" y2="${plotTop + plotHeight}" class="axis"></line>${bars}</svg>`;
}
