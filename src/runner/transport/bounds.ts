/**
 * The read bounds of an answer, as a step of the transport: at most `maxResponseBytes` as received (a declared
 * length above it is refused at the headers; a body streaming past it is stopped), and no later than
 * `requestDeadlineMs` after its headers (undici's body timeout is per chunk: a byte every few seconds never trips
 * it). Beyond a bound the request is aborted, nothing more is read and the exchange fails with a `BoundHit`
 * (`RESPONSE_TOO_LARGE` or `REQUEST_DEADLINE`) whose words name the bound and its option. The decoded size is
 * bounded where the body is decoded (`decodedWithin`, used by the record step).
 * @module
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { Dispatcher } from "undici";
import { PassingHandler, type RawHeaders, type TransportInterceptor } from "./types.ts";

export interface ReadBounds {
  /** A body above this, as received or as decoded (gzip, deflate, br), is not read further: "answer too large". */
  readonly maxResponseBytes: number;
  /** From the answer's first byte (its headers) to its last: a body trickling in must end. */
  readonly requestDeadlineMs: number;
}

/** A bound of the client was hit reading an answer: the exchange fails with this code and message. */
export class BoundHit extends Error {
  readonly code: "RESPONSE_TOO_LARGE" | "REQUEST_DEADLINE";
  constructor(code: "RESPONSE_TOO_LARGE" | "REQUEST_DEADLINE", message: string) {
    super(message);
    this.code = code;
  }
}

/** The bounds step; `close()` stops its deadline timer (the transport's close). */
export function bounds(limits: ReadBounds): TransportInterceptor & { close(): void } {
  const deadlines = new ReadDeadlines(limits.requestDeadlineMs);
  const step: TransportInterceptor = (dispatch) => (opts, handler) =>
    dispatch(opts, new BoundedRead(handler, limits, deadlines));
  return Object.assign(step, { close: () => deadlines.stop() });
}

class BoundedRead extends PassingHandler {
  readonly #limits: ReadBounds;
  readonly #deadlines: ReadDeadlines;
  #read: Read | undefined;
  #hit: BoundHit | undefined;
  #bytes = 0;
  #contentType = "no content type";

  constructor(above: Dispatcher.DispatchHandler, limits: ReadBounds, deadlines: ReadDeadlines) {
    super(above);
    this.#limits = limits;
    this.#deadlines = deadlines;
  }

  override onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: RawHeaders,
    statusMessage?: string,
  ): void {
    if (statusCode >= 200) {
      this.#contentType = textOf(headers["content-type"]) ?? "no content type";
      const declared = textOf(headers["content-length"]);
      const cap = this.#limits.maxResponseBytes;
      // Thrown here, undici aborts the request: the body is never read and the connection is freed.
      if (declared !== undefined && Number(declared) > cap)
        throw tooLarge(this.#contentType, cap, `${Number(declared)} bytes declared`);
      const deadlineMs = this.#limits.requestDeadlineMs;
      this.#read = this.#deadlines.start(performance.now() + deadlineMs, () => {
        this.#hit = new BoundHit(
          "REQUEST_DEADLINE",
          `the answer (${this.#contentType}) did not end within ${deadlineMs} ms of its headers (--request-deadline); reading stopped`,
        );
        controller.abort(this.#hit);
      });
    }
    super.onResponseStart(controller, statusCode, headers, statusMessage);
  }

  override onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#bytes += chunk.length;
    const cap = this.#limits.maxResponseBytes;
    if (this.#bytes > cap) throw tooLarge(this.#contentType, cap, `more than ${cap} bytes`);
    super.onResponseData(controller, chunk);
  }

  override onResponseEnd(controller: Dispatcher.DispatchController, trailers: RawHeaders): void {
    this.#end();
    super.onResponseEnd(controller, trailers);
  }

  override onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#end();
    super.onResponseError(controller, this.#hit ?? error);
  }

  #end(): void {
    if (this.#read) this.#deadlines.end(this.#read);
    this.#read = undefined;
  }
}

function textOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

function tooLarge(contentType: string, cap: number, size: string): BoundHit {
  return new BoundHit(
    "RESPONSE_TOO_LARGE",
    `answer too large: ${contentType}, ${size}, above the ${cap}-byte cap (--max-response-bytes); reading stopped`,
  );
}

/**
 * The body as decoded by its `Content-Encoding` (conform asks for none, but a target may send one anyway), never
 * more than `cap` bytes of it (a gzip bomb is stopped by its decoded size); an encoding Node does not know is kept
 * as it came.
 */
export function decodedWithin(raw: Buffer, contentEncoding: string | undefined, cap: number): Buffer {
  const encoding = contentEncoding?.trim().toLowerCase();
  if (!encoding || encoding === "identity" || raw.byteLength === 0) return raw;
  const decode =
    encoding === "gzip" || encoding === "x-gzip"
      ? gunzipSync
      : encoding === "deflate"
        ? inflateSync
        : encoding === "br"
          ? brotliDecompressSync
          : undefined;
  if (!decode) return raw;
  try {
    return decode(raw, { maxOutputLength: cap });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw new BoundHit(
        "RESPONSE_TOO_LARGE",
        `answer too large: ${raw.byteLength} bytes of ${encoding} decode to more than the ${cap}-byte cap (--max-response-bytes); decoding stopped`,
      );
    // Not decodable as labelled: judged as the bytes that came.
    return raw;
  }
}

interface Read {
  /** `performance.now()` past which the read is stopped. */
  readonly at: number;
  readonly expire: () => void;
}

/**
 * The deadlines of the bodies being read, swept by one timer: a timer per request cost every request a Timeout
 * and two updates of Node's timer lists. A read is stopped within a tenth of the deadline (10 ms to 1 s) after it
 * passed. The timer is unref'd (a read in flight holds its socket anyway) and stops once a sweep finds no read.
 */
class ReadDeadlines {
  readonly #reads = new Set<Read>();
  readonly #periodMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(deadlineMs: number) {
    this.#periodMs = Math.min(1000, Math.max(10, Math.floor(deadlineMs / 10)));
  }

  start(at: number, expire: () => void): Read {
    const read: Read = { at, expire };
    this.#reads.add(read);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.#periodMs);
      this.#timer.unref();
    }
    return read;
  }

  end(read: Read): void {
    this.#reads.delete(read);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    if (this.#reads.size === 0) {
      this.stop();
      return;
    }
    const now = performance.now();
    for (const read of this.#reads) {
      if (read.at > now) continue;
      this.#reads.delete(read);
      read.expire();
    }
  }
}
