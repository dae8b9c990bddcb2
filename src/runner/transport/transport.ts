/**
 * The runner's transport: one keep-alive undici Agent (a pool per origin, connect, headers and body timeouts, TLS
 * options) composed with conform's steps as undici interceptors, outermost first:
 * 1. `retry-429.ts`: a 429 sent again after its `Retry-After`, within `--max-retries` and `--max-wait`;
 * 2. `pace.ts`: each attempt waits for the rate pacer, which learns from each answer;
 * 3. `record.ts`: each attempt recorded and redacted, its live answer left for the caller;
 * 4. `bounds.ts`: the answer read within `--max-response-bytes` and `--request-deadline`.
 * `docs/transport.md` says how to add a step.
 * @module
 */
import { Agent, type Dispatcher } from "undici";
import type { RatePacer } from "../rate-pacer.ts";
import { bounds, type ReadBounds } from "./bounds.ts";
import { pace } from "./pace.ts";
import { type RecordOptions, record } from "./record.ts";
import { type RetryOptions, type RetryTally, retry429 } from "./retry-429.ts";
import type { TransportInterceptor, TransportRequest } from "./types.ts";

export interface TransportOptions extends RecordOptions, ReadBounds, RetryOptions {
  /** PEM text of extra CAs to trust. */
  readonly ca: string | undefined;
  readonly insecure: boolean;
  readonly connections: number;
  readonly pacer: RatePacer;
}

export class Transport {
  readonly #agent: Agent;
  readonly #composed: Dispatcher;
  readonly #bounds: ReturnType<typeof bounds>;
  /** 429 answers retried, and 429 answers seen, for the report. */
  readonly tally: RetryTally = { retries: 0, rateLimited: 0 };

  constructor(options: TransportOptions) {
    this.#agent = new Agent({
      connections: options.connections,
      connectTimeout: options.timeoutMs,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
      connect: { ca: options.ca, rejectUnauthorized: !options.insecure },
    });
    this.#bounds = bounds(options);
    // undici applies the last interceptor outermost.
    const steps: TransportInterceptor[] = [
      this.#bounds,
      record(options),
      pace(options.pacer),
      retry429(options, this.tally),
    ];
    // The steps take conform's requests (undici's dispatch options and more): undici passes them on untouched.
    this.#composed = this.#agent.compose(steps as unknown as Dispatcher.DispatcherComposeInterceptor[]);
  }

  /** Sends one request through the steps; `handler` hears its last attempt's end or its failure. */
  dispatch(request: TransportRequest, handler: Dispatcher.DispatchHandler): void {
    this.#composed.dispatch(request, handler);
  }

  async close(): Promise<void> {
    this.#bounds.close();
    await this.#agent.close();
  }
}
