/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) out and in. Out: every exchange of a run or a proxy
 * session, as recorded (already redacted), written as it comes (`HarWriter`, a listener of `exchange` events), so
 * a long session holds no entries in memory. In: a HAR file's entries as observed exchanges, in the file's order.
 * conform's own fields are `_conform` (exchange id, operation, what a deliberately invalid request breaks, the
 * generic layer's intent, a transport error); read back, the intent lets `verify` judge as the run did.
 * @module
 */
import { createWriteStream, openSync, type WriteStream } from "node:fs";
import { ConfigError } from "../core/errors.ts";
import type { RunEvent } from "../core/events.ts";
import type { Exchange, RequestIntent } from "../core/exchange.ts";
import type { ObservedExchange } from "./record.ts";

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

const headerList = (headers: Readonly<Record<string, string>>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** One exchange as a HAR entry. */
export function harEntry(exchange: Exchange): Record<string, unknown> {
  const { request, response, timings } = exchange;
  const wait = Math.max(0, timings.headersMs);
  const receive = Math.max(0, timings.totalMs - timings.headersMs);
  return {
    startedDateTime: new Date(timings.startedAt).toISOString(),
    time: Math.max(0, timings.totalMs),
    request: {
      method: request.method,
      url: request.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(request.headers),
      queryString: queryOf(request.url),
      ...(request.body !== undefined
        ? { postData: { mimeType: request.headers["content-type"] ?? "", text: request.body } }
        : {}),
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
    },
    response: {
      status: response?.status ?? 0,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(response?.headers ?? {}),
      content: {
        size: response?.bytes ?? 0,
        mimeType: response?.headers["content-type"] ?? "",
        ...(response ? { text: response.text } : {}),
      },
      redirectURL: response?.headers.location ?? "",
      headersSize: -1,
      bodySize: response?.bytes ?? -1,
    },
    cache: {},
    timings: { send: 0, wait, receive },
    _conform: {
      exchangeId: exchange.id,
      operationId: exchange.operationId ?? null,
      ...(request.breaks !== undefined ? { breaks: request.breaks } : {}),
      ...(request.intent !== undefined ? { intent: request.intent } : {}),
      ...(exchange.error ? { error: exchange.error } : {}),
      ...(response?.truncated ? { truncated: true } : {}),
    },
  };
}

const creator = (version: string) => ({ name: "conform", version });

/**
 * Writes every `exchange` event to a HAR file as it comes, and closes the file at `run-finished`. A listener: it
 * computes nothing, only serialises what the run recorded.
 */
export class HarWriter {
  readonly #stream: WriteStream;
  #entries = 0;
  #closed: Promise<void> | undefined;
  #failure: Error | undefined;

  constructor(path: string, toolVersion: string) {
    let fd: number;
    try {
      // Opened now, not when the first exchange comes: a run whose HAR cannot be written is refused before it starts.
      fd = openSync(path, "w", 0o600);
    } catch (error) {
      throw new ConfigError(
        `--har: ${path} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    this.#stream = createWriteStream("", { fd });
    this.#stream.on("error", (error) => {
      this.#failure ??= error;
    });
    this.#stream.write(
      `{"log":{"version":"1.2","creator":${JSON.stringify(creator(toolVersion))},"pages":[],"entries":[\n`,
    );
  }

  readonly listener = (event: RunEvent): Promise<void> | undefined => {
    if (event.type === "exchange") {
      this.#stream.write(`${this.#entries > 0 ? ",\n" : ""}${JSON.stringify(harEntry(event.exchange))}`);
      this.#entries += 1;
      return undefined;
    }
    if (event.type === "run-finished") return this.close();
    return undefined;
  };

  /** Ends the file (once). */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve, reject) => {
      this.#stream.end("\n]}}\n", () => (this.#failure ? reject(this.#failure) : resolve()));
    });
    return this.#closed;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function headersOf(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const header of list) {
    if (!isObject(header) || typeof header.name !== "string") continue;
    const name = header.name.toLowerCase();
    // HTTP/2 pseudo-headers are no headers of the exchange.
    if (name.startsWith(":")) continue;
    const value = String(header.value ?? "");
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

/** A recorded intent as the generic checks read it (its shape checked: a HAR may come from anywhere). */
function intentOf(value: unknown): RequestIntent | undefined {
  if (!isObject(value) || typeof value.operationId !== "string" || typeof value.scenario !== "string")
    return undefined;
  if (value.mode === "positive") return value as unknown as RequestIntent;
  const broken = value.broken;
  const rulesRead =
    Array.isArray(broken) &&
    broken.length > 0 &&
    broken.every((rule) => isObject(rule) && typeof rule.in === "string" && typeof rule.rule === "string");
  return value.mode === "negative" && rulesRead ? (value as unknown as RequestIntent) : undefined;
}

/** Is this parsed JSON a HAR log? */
export function isHar(value: unknown): boolean {
  return isObject(value) && isObject(value.log) && Array.isArray(value.log.entries);
}

/** The entries of a parsed HAR log as observed exchanges, in the file's order; throws on a file that is not HAR. */
export function readHar(value: unknown): ObservedExchange[] {
  if (!isHar(value)) throw new Error("not a HAR file (no log.entries array)");
  const entries = (value as { log: { entries: unknown[] } }).log.entries;
  const stray = entries.findIndex((entry) => !isObject(entry));
  if (stray >= 0) throw new Error(`log.entries[${stray}] is not an entry (an object)`);
  return (entries as Record<string, unknown>[]).map((entry, index) => {
    const request = isObject(entry.request) ? entry.request : {};
    const response = isObject(entry.response) ? entry.response : undefined;
    const content = isObject(response?.content) ? response.content : {};
    const own = isObject(entry._conform) ? entry._conform : {};
    const postData = isObject(request.postData) ? request.postData : undefined;
    const timings = isObject(entry.timings) ? entry.timings : {};
    const time = typeof entry.time === "number" ? entry.time : 0;
    const wait = typeof timings.wait === "number" && timings.wait >= 0 ? timings.wait : time;
    const started = Date.parse(String(entry.startedDateTime ?? ""));
    let body = typeof content.text === "string" ? content.text : "";
    if (content.encoding === "base64") body = Buffer.from(body, "base64").toString("utf8");
    const status = typeof response?.status === "number" ? response.status : 0;
    const error = isObject(own.error) ? (own.error as { code: string; message: string }) : undefined;
    const intent = intentOf(own.intent);
    return {
      method: String(request.method ?? "GET"),
      url: String(request.url ?? ""),
      requestHeaders: headersOf(request.headers),
      requestBody: typeof postData?.text === "string" ? postData.text : undefined,
      // A status of 0 is how browsers and conform write an exchange that got no answer.
      response: status > 0 ? { status, headers: headersOf(response?.headers), body } : undefined,
      ...(error ? { error } : {}),
      startedAt: Number.isNaN(started) ? index : started,
      headersMs: wait,
      totalMs: time,
      ...(typeof own.breaks === "string" ? { breaks: own.breaks } : {}),
      ...(intent ? { intent } : {}),
    };
  });
}
