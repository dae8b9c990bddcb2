/**
 * `conform proxy --confirm`: the proxy's own read-only requests, to judge what the client's traffic showed. After a
 * client's write answered 2xx (a create, an update, an action) it reads the item back (a GET of the item's path,
 * from the description's resources); after a filtered list answered 2xx it fetches the same list without the
 * filter, so the filtered list is seen beside the unfiltered one. Each goes with the credential the client sent
 * (recorded redacted, never printed) through the runner's HTTP client, held by the rate-limit windows the client's
 * answers showed too, and is judged as the source `confirmations`. Bounded: at most `max`, and only GETs. A client's
 * write waits for the confirmations in flight (at most {@link writeHoldMs}), so they read the state the client's
 * last answer showed and are judged before its next write; none starts while a client's write is in flight, and
 * one a write overtook all the same (past the hold) is not judged: which state its answer shows is unknown.
 * Without `--confirm` none of this exists: the proxy sends nothing of its own.
 * @module
 */
import { readFileSync } from "node:fs";
import { callerOf } from "../core/caller.ts";
import type { RunEvent } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import type { SecretValues } from "../core/redact.ts";
import type { RunConfig } from "../runner/config.ts";
import { HttpClient, TransportError } from "../runner/http-client.ts";
import { RatePacer } from "../runner/rate-pacer.ts";
import { pacingKeyOf } from "../runner/transport/pace.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { type Resource, resourcesOf } from "../spec/resources.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import type { TrafficSource } from "./session.ts";

/** The suite id of the proxy's own requests. */
export const confirmationsSourceId = "confirmations";
/** Their source in the session: a suite of one case, skipped when nothing needed confirming. */
export const confirmationsSource: TrafficSource = Object.freeze({
  id: confirmationsSourceId,
  title: "the proxy's own read-only requests (--confirm)",
  skipReason: "nothing to confirm: no write nor filtered list answered 2xx came",
});

const readOnly = new Set(["GET", "HEAD", "OPTIONS"]);
/** The longest a client's write waits for the confirmations in flight before it goes on (they are then not judged). */
export const writeHoldMs = 2000;
const segmentsOf = (path: string) => path.split("/").filter((segment) => segment !== "");

export interface ConfirmerInput {
  readonly spec: ApiSpec;
  readonly config: RunConfig;
  /** The most confirmations sent. */
  readonly max: number;
  /** The proxy's secrets (the clients' credentials): what the confirmations record is redacted by them. */
  readonly secrets: SecretValues;
  readonly matchOperation: (method: string, url: string) => string | undefined;
  /** Judges a confirmation's exchange (the session's `confirmations` source), `caller` its token's digest. */
  readonly judge: (exchange: Exchange, caller: string | undefined) => void;
  readonly emit: (event: RunEvent) => void;
  /** A line for the `confirmations` case's log. */
  readonly note: (line: string) => void;
}

/** Why a confirmation is sent. */
type Kind = "read-back" | "unfiltered list";

export class Confirmer {
  readonly #input: ConfirmerInput;
  readonly #client: HttpClient;
  readonly #pacer: RatePacer;
  readonly #byOperation = new Map<string, Resource>();
  readonly #filterHeader: string;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  /** Unfiltered lists fetched, by URL, caller and the client writes before them: each state's list once. */
  readonly #listsFetched = new Set<string>();
  readonly #sent = new Map<Kind, number>();
  #writesStarted = 0;
  #writesInFlight = 0;
  #overtaken = 0;
  #overLimit = 0;
  #failed = 0;
  #stopping = false;

  constructor(input: ConfirmerInput) {
    this.#input = input;
    const { config, spec } = input;
    for (const resource of resourcesOf(spec))
      for (const operation of [resource.create, resource.update, ...resource.actions])
        if (operation) this.#byOperation.set(operation.operationId, resource);
    this.#filterHeader = conventionsOf(spec).filterHeader.toLowerCase();
    this.#pacer = new RatePacer(
      config.rate,
      undefined,
      (key, waitMs, reason) =>
        input.emit({ type: "rate-limit-wait", limit: key.split("\u0000")[0] ?? key, waitMs, reason }),
      config.maxWaitMs,
    );
    this.#client = new HttpClient({
      timeoutMs: config.timeoutMs,
      ca: config.caFile ? readFileSync(config.caFile, "utf8") : undefined,
      insecure: config.insecure,
      connections: 4,
      maxResponseBytes: config.maxResponseBytes,
      requestDeadlineMs: config.requestDeadlineMs,
      maxRetries: config.maxRetries,
      maxWaitMs: config.maxWaitMs,
      pacer: this.#pacer,
      secrets: input.secrets,
      matchOperation: input.matchOperation,
    });
  }

  /**
   * A client's request is about to be forwarded: a write first waits for the confirmations in flight (at most
   * {@link writeHoldMs}); none starts from now until it ends, and one still in flight when it goes is not judged.
   */
  async clientStarting(method: string): Promise<void> {
    if (readOnly.has(method.toUpperCase())) return;
    this.#writesInFlight += 1;
    if (this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const held = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, writeHoldMs);
      });
      await Promise.race([Promise.allSettled([...this.#inFlight]), held]);
      clearTimeout(timer);
    }
    this.#writesStarted += 1;
  }

  /** A client's request ended (answered or not); call once per {@link clientStarting}. */
  clientEnded(method: string): void {
    if (!readOnly.has(method.toUpperCase())) this.#writesInFlight -= 1;
  }

  /**
   * The client's exchange, judged, with the headers it sent (its credential as it was): its rate-limit headers
   * teach the pacer, and what it showed is confirmed.
   */
  afterClient(exchange: Exchange, sentHeaders: Readonly<Record<string, string>>): void {
    const { response, operationId } = exchange;
    if (!response || !operationId || this.#stopping) return;
    const { method, url } = exchange.request;
    this.#pacer.observe(pacingKeyOf({ method, url, headers: sentHeaders }, operationId), response.headers);
    if (response.status < 200 || response.status >= 300) return;
    const operation = this.#input.spec.operations.byId(operationId);
    if (!operation || operation.serverUrl !== undefined) return;
    const authorization = sentHeaders.authorization;
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const item = this.#itemUrlOf(operation, exchange);
    if (item !== undefined) {
      this.#send("read-back", item, headers);
      return;
    }
    const list = operation.method === "get" && (operation.paginated || operation.filterableFields.length > 0);
    if (!list || exchange.request.headers[this.#filterHeader] === undefined) return;
    const key = `${url}\u0000${callerOf(headers) ?? ""}\u0000${this.#writesStarted}`;
    if (this.#listsFetched.has(key)) return;
    this.#listsFetched.add(key);
    this.#send("unfiltered list", url, headers);
  }

  /** The item a write answered 2xx touched, read by its resource's read; undefined when there is none to read. */
  #itemUrlOf(operation: OperationInfo, exchange: Exchange): string | undefined {
    const resource = this.#byOperation.get(operation.operationId);
    if (!resource?.read || resource.itemPath === undefined) return undefined;
    const url = new URL(exchange.request.url);
    url.search = "";
    const segments = url.pathname.replace(/\/+$/, "").split("/");
    if (operation === resource.create) {
      const json = exchange.response?.json as Record<string, unknown> | undefined;
      const id = resource.idField ? json?.[resource.idField.name] : undefined;
      if (typeof id !== "string" && typeof id !== "number") return undefined;
      url.pathname = `${segments.join("/")}/${encodeURIComponent(String(id))}`;
      return url.href;
    }
    // An update is at the item; an action below it: drop what its template has beyond the item's.
    const below = segmentsOf(operation.pathTemplate).length - segmentsOf(resource.itemPath).length;
    if (below < 0 || below >= segments.length) return undefined;
    url.pathname = segments.slice(0, segments.length - below).join("/");
    return url.href;
  }

  /** Sends one GET (within the bound), and judges what came unless a client write may have overtaken it. */
  #send(kind: Kind, url: string, headers: Readonly<Record<string, string>>): void {
    const sent = [...this.#sent.values()].reduce((sum, count) => sum + count, 0);
    if (sent >= this.#input.max) {
      if (this.#overLimit === 0)
        this.#input.emit({
          type: "warning",
          message: `confirmations: the limit of ${this.#input.max} (--max-confirmations) was reached; later writes and filtered lists were not confirmed`,
        });
      this.#overLimit += 1;
      return;
    }
    if (this.#writesInFlight > 0) {
      this.#overtaken += 1;
      return;
    }
    this.#sent.set(kind, (this.#sent.get(kind) ?? 0) + 1);
    const writesBefore = this.#writesStarted;
    const attempts: Exchange[] = [];
    const request = { method: "GET", url, headers, signal: this.#abort.signal };
    const task = this.#client
      .send(request, (exchange) => attempts.push(exchange))
      .then(
        () => undefined,
        (error: unknown) => {
          if (!(error instanceof TransportError) && !this.#abort.signal.aborted) this.#failed += 1;
        },
      )
      .then(() => {
        if (this.#abort.signal.aborted) return;
        if (this.#writesStarted !== writesBefore) {
          this.#overtaken += 1;
          return;
        }
        const caller = callerOf(headers);
        for (const exchange of attempts) this.#input.judge(exchange, caller);
      });
    this.#inFlight.add(task);
    void task.finally(() => this.#inFlight.delete(task));
  }

  /** Abandons the confirmations in flight (unjudged), closes the client, and logs what was and was not sent. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#abort.abort();
    await Promise.allSettled([...this.#inFlight]);
    await this.#client.close();
    const sent = [...this.#sent].map(([kind, count]) => `${count} ${kind}${count === 1 ? "" : "s"}`);
    this.#input.note(`confirmations sent: ${sent.length === 0 ? "none" : sent.join(", ")}`);
    if (this.#overtaken > 0)
      this.#input.note(
        `${this.#overtaken} not sent or not judged: a client's write was in flight (what they would read is of an unknown state)`,
      );
    if (this.#overLimit > 0)
      this.#input.note(`${this.#overLimit} not sent: the limit of ${this.#input.max} (--max-confirmations)`);
    if (this.#failed > 0)
      this.#input.note(`${this.#failed} not answered within the rate-limit wait (--max-wait)`);
  }
}
