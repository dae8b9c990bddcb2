/**
 * go-vcr cassettes (https://github.com/dnaeon/go-vcr), the YAML in which Go SDKs and infrastructure-as-code
 * providers record their integration tests: `version: 1` (`request: {body, form, headers, url, method}`,
 * `response: {body, headers, status, code, duration}`) and `version: 2` (the same with `id`, `proto`,
 * `content_length`, a `duration` such as `123.4ms`). Headers are lists of values. Interactions are read in the
 * file's order, each as an observed exchange. A cassette has no times of its own: an interaction is dated by its
 * answer's `Date` header (what a rate-limit reset is judged against), else it follows the one before it, and the
 * first undated one is dated `startedAt`.
 *
 * SDKs filter their cassettes before saving them: the Go SDK of the real service drops `Date`, `Retry-After`,
 * `X-RateLimit-Remaining`, `X-RateLimit-Reset` and `X-Spec-Version` from every answer (and the Authorization
 * header from every request). So a response header that is on none of a cassette's answers counts as not
 * recorded (`RecordingGaps.headersKept`): the checks that need it skip, saying so. A header some answers carry
 * and others lack is judged where it is missing.
 * @module
 */
import { parse } from "yaml";
import type { ObservedExchange } from "./record.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Does this parsed YAML look like a go-vcr cassette? */
export function isCassette(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.interactions);
}

function headersOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [name, values] of Object.entries(value)) {
    const list = Array.isArray(values) ? values.map(String) : [String(values ?? "")];
    out[name.toLowerCase()] = list.join(", ");
  }
  return out;
}

const unitsMs: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration (`1m2.5s`, `123ms`, or nanoseconds as a number) in milliseconds; 0 when absent. */
export function goDurationMs(value: unknown): number {
  if (typeof value === "number") return value / 1e6;
  if (typeof value !== "string") return 0;
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/([0-9.]+)(ns|us|µs|ms|s|m|h)/g))
    total += Number(amount) * (unitsMs[unit!] ?? 0);
  return total;
}

/** The interactions of a cassette's text; throws when the text is not a cassette. */
export function readCassette(text: string, startedAt = Date.now()): ObservedExchange[] {
  const document: unknown = parse(text, { maxAliasCount: 100 });
  if (!isCassette(document)) throw new Error("not a go-vcr cassette (no interactions list)");
  let clock = startedAt;
  const headersKept = new Set<string>();
  const recording = { headersKept };
  const interactions = (document as { interactions: unknown[] }).interactions;
  const stray = interactions.findIndex((interaction) => !isObject(interaction));
  if (stray >= 0) throw new Error(`interactions[${stray}] is not an interaction (a mapping)`);
  return (interactions as Record<string, unknown>[]).map((interaction) => {
    const request = isObject(interaction.request) ? interaction.request : {};
    const response = isObject(interaction.response) ? interaction.response : undefined;
    const code =
      typeof response?.code === "number"
        ? response.code
        : Number.parseInt(String(response?.status ?? ""), 10);
    const duration = goDurationMs(response?.duration);
    const responseHeaders = headersOf(response?.headers);
    for (const name of Object.keys(responseHeaders)) headersKept.add(name);
    const dated = Date.parse(responseHeaders.date ?? "");
    if (!Number.isNaN(dated)) clock = dated - duration;
    const started = clock;
    clock += Math.max(duration, 1);
    const form = isObject(request.form) ? request.form : undefined;
    let body = typeof request.body === "string" ? request.body : undefined;
    if ((body === undefined || body === "") && form && Object.keys(form).length > 0) {
      const params = new URLSearchParams();
      for (const [key, values] of Object.entries(form))
        for (const value of Array.isArray(values) ? values : [values]) params.append(key, String(value));
      body = params.toString();
    }
    const failed = typeof interaction.error === "string" || typeof response?.error === "string";
    return {
      method: String(request.method ?? "GET"),
      url: String(request.url ?? ""),
      requestHeaders: headersOf(request.headers),
      requestBody: body === "" ? undefined : body,
      response:
        Number.isInteger(code) && code > 0 && !failed
          ? { status: code, headers: responseHeaders, body: String(response?.body ?? "") }
          : undefined,
      ...(failed
        ? { error: { code: "RECORDED_ERROR", message: String(interaction.error ?? response?.error) } }
        : {}),
      startedAt: started,
      headersMs: duration,
      totalMs: duration,
      // An empty or absent duration (the real SDK's cassettes): nothing was measured, not 0 ms.
      ...(duration === 0 ? { measured: false as const } : {}),
      recording,
    };
  });
}
