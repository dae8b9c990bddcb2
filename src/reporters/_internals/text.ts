/**
 * Small text helpers shared by the reporters: excerpts of response bodies, values shown as expected/actual, and
 * terminal-safe text (a hostile body must not move the cursor or recolour the terminal).
 * @internal
 */

/** The first `max` characters of a text, with an ellipsis and the size left out when cut. */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** A value for a message line: strings as they are, the rest as compact JSON (cut at `max`). */
export function formatValue(value: unknown, max = 500): string {
  let text: string;
  if (typeof value === "string") text = value;
  else if (value === undefined) text = "undefined";
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return excerpt(text, max);
}

/** A value pretty-printed for a detail block (HTML). */
export function prettyValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Makes text safe for a terminal: C0 and C1 control characters (ESC and CSI start escape sequences) become visible
 * `\xNN` text. Newlines and tabs are kept unless `singleLine`, which turns them into spaces.
 */
export function terminalSafe(text: string, singleLine = false): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    if (char === "\n" || char === "\t" || char === "\r") return singleLine ? " " : char === "\r" ? "" : char;
    return `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
}

/** One line: whitespace runs collapsed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
