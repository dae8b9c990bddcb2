/**
 * XML 1.0 escaping for report text that may come from a hostile target: markup characters are escaped, and
 * characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) become visible
 * `\uXXXX` text instead of making the file unreadable (vitest `escapeXML`, stricter).
 * @internal
 */

// Allowed by XML 1.0 §2.2: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const invalidXmlChars = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function visible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Replaces characters XML 1.0 forbids with `\uXXXX` text. */
export function stripInvalidXmlChars(text: string): string {
  return text.replace(invalidXmlChars, visible);
}

const textEntities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const attributeEntities: Record<string, string> = {
  ...textEntities,
  '"': "&quot;",
  "'": "&apos;",
  // Attribute value normalisation (XML 1.0 §3.3.3) would turn these into spaces: keep them as references.
  "\n": "&#10;",
  "\r": "&#13;",
  "\t": "&#9;",
};

/** Escapes text content. */
export function escapeXml(text: string): string {
  return stripInvalidXmlChars(text).replace(/[&<>]/g, (char) => textEntities[char] ?? char);
}

/** Escapes an attribute value (to be written between double quotes). */
export function escapeXmlAttribute(text: string): string {
  return stripInvalidXmlChars(text).replace(/[&<>"'\n\r\t]/g, (char) => attributeEntities[char] ?? char);
}
