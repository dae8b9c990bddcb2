/**
 * The console's colours and small phrases, shared by its progress, failure groups and summary: colour only when
 * asked (node:util `styleText`), counts said the same way everywhere.
 * @internal
 */
import { styleText } from "node:util";
import type { Counts } from "../../core/events.ts";
import { terminalSafe } from "./text.ts";

export type Style = Parameters<typeof styleText>[0];

/** Colours `text`, or leaves it plain when the console has no colour. */
export type Paint = (style: Style, text: string) => string;

export function painter(color: boolean): Paint {
  return (style, text) => (color ? styleText(style, text, { validateStream: false }) : text);
}

/** "1 suite", "3 cases". */
export function counted(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** "1 failed, 3 passed, 2 skipped": failures first, zeros left out (but passes). */
export function countsText(counts: Counts, paint: Paint): string {
  const parts: string[] = [];
  if (counts.failed) parts.push(paint("red", `${counts.failed} failed`));
  if (counts.errored) parts.push(paint("red", `${counts.errored} errored`));
  parts.push(`${counts.passed} passed`);
  if (counts.skipped) parts.push(paint("yellow", `${counts.skipped} skipped`));
  if (counts.interrupted) parts.push(paint("yellow", `${counts.interrupted} interrupted`));
  return parts.join(", ");
}

/**
 * ` · labels <prefix>-*` (a merged run's every shard's, comma-separated), or nothing for a run that labels nothing
 * (traffic judged by `proxy`, `verify`).
 */
export function labelsText(prefixes: readonly string[]): string {
  if (prefixes.length === 0) return "";
  return ` · labels ${prefixes.map((prefix) => `${terminalSafe(prefix, true)}-*`).join(", ")}`;
}
