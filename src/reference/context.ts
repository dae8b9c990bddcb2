/**
 * What a handler gets: the matched operation, typed path parameters, the validated body, the caller, the
 * state and the server's services. Handlers are keyed by the spec's operationId (handlers/index.ts), so the
 * description and the implementation cannot drift apart silently: a test checks every operation has one.
 * @module
 */
import type { OperationInfo } from "../spec/types.ts";
import type { ReferenceBehaviour } from "./behaviour.ts";
import type { Clock } from "./clock.ts";
import type { DataPlane } from "./data-plane.ts";
import type { ReferenceEvents } from "./events.ts";
import type { NodeHealth } from "./health.ts";
import type { Reply } from "./http/reply.ts";
import type { ListQuery } from "./list-query.ts";
import type { ReferenceState, TokenRecord } from "./state.ts";

export interface Caller {
  /** The token used; undefined on public endpoints called without one. */
  readonly token: TokenRecord | undefined;
  /** Remote address, the rate-limit key of anonymous calls. */
  readonly address: string;
}

export interface ServerUrls {
  /** `https://127.0.0.1:PORT/v4` */
  readonly baseUrl: string;
  /** `https://127.0.0.1:PORT` */
  readonly authUrl: string;
}

export interface HandlerContext {
  readonly operation: OperationInfo;
  readonly params: Readonly<Record<string, string | number>>;
  readonly query: URLSearchParams;
  /** The request body, already parsed and validated against the spec (undefined when none was sent). */
  readonly body: unknown;
  /** Request headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed `page`, `page_size` and `X-Filter` for paginated lists (already validated). */
  readonly list: ListQuery | undefined;
  readonly caller: Caller;
  readonly state: ReferenceState;
  readonly clock: Clock;
  /** Multiplies the server's own delays (boot, health-check interval); 1 is real time. */
  readonly timeScale: number;
  readonly events: ReferenceEvents;
  readonly health: NodeHealth;
  /** The load balancers' listeners (profiles serve on their ports). */
  readonly dataPlane: DataPlane;
  readonly urls: ServerUrls;
  /** The server's replaceable decisions (faults swap them). */
  readonly behaviour: ReferenceBehaviour;
}

export type Handler = (context: HandlerContext) => Reply | Promise<Reply>;

/** Every operation's handler, by operationId. */
export type HandlerMap = Readonly<Record<string, Handler>>;
