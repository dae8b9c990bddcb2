/**
 * Durations as people read them (`12 ms`, `1.25 s`, `2 min 05 s`) and as JUnit wants them (seconds, dot decimal,
 * no grouping: `0.012`) (vitest `getDuration`).
 * @internal
 */

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "-";
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours} h ${String(minutes).padStart(2, "0")} min` : `${minutes} min ${seconds} s`;
}

/** Seconds with millisecond precision, as JUnit's `time` attribute (Surefire pattern: digits, dot, digits). */
export function toSeconds(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "0.000";
  return (ms / 1000).toFixed(3);
}
