/**
 * HTML escaping for everything the HTML report interpolates: response bodies, headers and messages come from the
 * target, which may be hostile. Escapes the five characters that matter in text and in quoted attribute values.
 * @internal
 */

const entities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  return String(value).replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the line separators are escaped as
 * `\uXXXX`, so no text in the data can close the script element or open a comment.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Markup that is already safe (built by {@link html}); anything else interpolated into `html` is escaped. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(value as string | number | boolean | null | undefined);
}

/**
 * A tagged template that escapes every interpolated value unless it is {@link SafeHtml} (the result of another
 * `html` template): markup can only come from template literals in the source, never from data.
 */
export function html(strings: TemplateStringsArray, ...values: readonly Interpolation[]): SafeHtml {
  let out = strings[0] ?? "";
  for (const [index, value] of values.entries()) out += render(value) + (strings[index + 1] ?? "");
  return new SafeHtml(out);
}

/** Trusted constant markup (a stylesheet, a script, an SVG path built from numbers). Never pass data here. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
