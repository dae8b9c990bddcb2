/**
 * What the transport's interceptors share about one request: undici's dispatch options, plus what conform knows of
 * the request (the caller's, for recording), its pacing key, which attempt this is, and the slot where the record
 * step leaves the answer for the steps above it and the caller.
 * @module
 */
import type { Dispatcher } from "undici";
import type { Exchange } from "../../core/exchange.ts";
import type { LiveResponse, OutgoingRequest } from "../contracts.ts";

/** Headers as undici parses them: lower-cased names, an array for a repeated one. */
export type RawHeaders = Record<string, string | string[] | undefined>;

/** Where the record step leaves an attempt's answer (the last attempt's is the caller's). */
export interface AnswerSlot {
  live: LiveResponse | undefined;
}

export interface TransportRequest extends Dispatcher.DispatchOptions {
  readonly outgoing: OutgoingRequest;
  readonly operationId: string | undefined;
  /** `<operation>\u0000<caller>`: the pacer's window key, and what a wait is announced under. */
  readonly pacingKey: string;
  /** 0, then 1, 2, ... for each 429 retried (recorded with the exchange). */
  readonly attempt: number;
  /** Sees every recorded attempt. */
  readonly observe: (exchange: Exchange) => void;
  readonly answer: AnswerSlot;
}

/** A step of the transport: undici's interceptor shape over conform's requests. */
export type TransportDispatch = (opts: TransportRequest, handler: Dispatcher.DispatchHandler) => boolean;
export type TransportInterceptor = (dispatch: TransportDispatch) => TransportDispatch;

/** The handler of one step: passes everything to the handler above it unless it overrides. */
export class PassingHandler implements Dispatcher.DispatchHandler {
  protected readonly above: Dispatcher.DispatchHandler;

  constructor(above: Dispatcher.DispatchHandler) {
    this.above = above;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.above.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: RawHeaders,
    statusMessage?: string,
  ): void {
    this.above.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.above.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: RawHeaders): void {
    this.above.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.above.onResponseError?.(controller, error);
  }
}
