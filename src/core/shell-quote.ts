/**
 * POSIX shell quoting for the command lines a report prints (a curl line, a replay command): each must work as
 * pasted, whatever its values hold.
 * @module
 */

/** POSIX shell quoting: bare when safe, `'...'` otherwise, `$'...'` when the text holds control characters. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(value)) return value;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes
    const escaped = value.replace(/[\\'\u0000-\u001f\u007f]/g, (char) => {
      if (char === "\\") return "\\\\";
      if (char === "'") return "\\'";
      if (char === "\n") return "\\n";
      if (char === "\r") return "\\r";
      if (char === "\t") return "\\t";
      return `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;
    });
    return `$'${escaped}'`;
  }
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
