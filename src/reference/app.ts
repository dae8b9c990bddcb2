/**
 * The reference server's request pipeline, independent of the socket: route by the spec's operation index,
 * rate-limit, authenticate and check scopes, parse list parameters and the body (validated against the spec),
 * call the operation's handler, add the headers every answer carries. Every expected refusal is a Reply value;
 * an exception is a defect, answered 500 and reported through `onDefect`.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parsePointer } from "../spec/pointer.ts";
import { refusedWithoutField } from "../spec/refused-without-field.ts";
import type { ApiSpec, OperationInfo, OperationMatch, ValidationIssue } from "../spec/types.ts";
import type { ReferenceBehaviour } from "./behaviour.ts";
import type { Clock } from "./clock.ts";
import type { Caller, HandlerContext, HandlerMap, ServerUrls } from "./context.ts";
import type { DataPlane } from "./data-plane.ts";
import { forbidden, invalidToken, notFound, payloadTooLarge, reasons, tooManyRequests } from "./errors.ts";
import type { ReferenceEvents } from "./events.ts";
import type { NodeHealth } from "./health.ts";
import { mediaType, parseBody, readRaw } from "./http/body.ts";
import { commonHeaders } from "./http/headers.ts";
import { badRequest, errorReply, type Reply } from "./http/reply.ts";
import { issuesToErrors } from "./http/validation-errors.ts";
import type { ListQuery } from "./list-query.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { ReferenceState, TokenRecord } from "./state.ts";

export interface AppServices {
  readonly spec: ApiSpec;
  readonly handlers: HandlerMap;
  readonly state: ReferenceState;
  readonly clock: Clock;
  readonly timeScale: number;
  readonly events: ReferenceEvents;
  readonly health: NodeHealth;
  readonly dataPlane: DataPlane;
  readonly limiter: RateLimiter;
  readonly urls: ServerUrls;
  /** The API's path prefix, `/v4`. */
  readonly basePath: string;
  readonly maxBodyBytes: number;
  readonly onDefect: (error: unknown, request: IncomingMessage) => void;
  readonly behaviour: ReferenceBehaviour;
  /** Rewrites of every answer before it is sent (faults); empty on a clean server. */
  readonly replyRewrites: readonly ReplyRewrite[];
}

/** An answer on its way out, every header included. */
export interface Outgoing {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly raw: string | undefined;
}

/** A change to an answer on its way out: what a fault uses to break a status, a header or a body. */
export type ReplyRewrite = (
  outgoing: Outgoing,
  operation: OperationInfo | undefined,
  request: IncomingMessage,
) => Outgoing;

export interface Answer {
  readonly reply: Reply;
  readonly headers: Record<string, string>;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function serialise(body: unknown): string {
  // Pages beyond 2^53 stay exact: bigints are written as JSON integers.
  return JSON.stringify(body, (_key, value) =>
    typeof value === "bigint" ? `\u0000${value}\u0000` : value,
  ).replace(/"\\u0000(\d+)\\u0000"/g, "$1");
}

export class ReferenceApp {
  readonly #common: Readonly<Record<string, string>>;
  /** The operation each request matched, for reply rewrites. */
  readonly #operations = new WeakMap<IncomingMessage, OperationInfo>();
  private readonly services: AppServices;

  constructor(services: AppServices) {
    this.services = services;
    this.#common = commonHeaders(services.spec.version);
  }

  /** Node's request listener. */
  readonly listener = (request: IncomingMessage, response: ServerResponse): void => {
    void this.handle(request, response);
  };

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      answer = await this.answer(request);
    } catch (error) {
      this.services.onDefect(error, request);
      answer = { reply: errorReply(500, [{ reason: reasons.internal }]), headers: {} };
    }
    if (response.headersSent || response.destroyed) return;
    const { reply } = answer;
    let outgoing: Outgoing = {
      status: reply.status,
      headers: { ...this.#common, "Content-Type": "application/json", ...answer.headers, ...reply.headers },
      body: reply.body,
      raw: reply.raw,
    };
    for (const rewrite of this.services.replyRewrites)
      outgoing = rewrite(outgoing, this.#operations.get(request), request);
    const payload = outgoing.raw ?? serialise(outgoing.body);
    const headers = { ...outgoing.headers, "Content-Length": String(Buffer.byteLength(payload)) };
    response.writeHead(outgoing.status, headers);
    response.end(request.method === "HEAD" ? undefined : payload);
  }

  private route(method: string, path: string): OperationMatch | "method-not-allowed" | undefined {
    const { basePath, spec } = this.services;
    const api = path === basePath || path.startsWith(`${basePath}/`);
    const relative = api ? path.slice(basePath.length) || "/" : path;
    const fits = (match: OperationMatch | undefined) =>
      match !== undefined && (match.operation.serverUrl === undefined) === api ? match : undefined;
    const found = fits(spec.operations.match(method === "HEAD" ? "GET" : method, relative));
    if (found) return found;
    const methods = ["GET", "POST", "PUT", "DELETE"];
    return methods.some((other) => fits(spec.operations.match(other, relative)))
      ? "method-not-allowed"
      : undefined;
  }

  private async answer(request: IncomingMessage): Promise<Answer> {
    const url = new URL(request.url ?? "/", "http://reference.invalid");
    const method = (request.method ?? "GET").toUpperCase();
    const routed = this.route(method, url.pathname);
    if (method === "OPTIONS") {
      return { reply: routed ? { status: 200, body: {} } : notFound(), headers: {} };
    }
    if (routed === undefined) return { reply: notFound(), headers: {} };
    if (routed === "method-not-allowed") {
      return { reply: errorReply(405, [{ reason: `Method ${method} is not allowed here` }]), headers: {} };
    }
    const { operation, pathParams } = routed;
    this.#operations.set(request, operation);
    const { state, limiter, clock } = this.services;
    const token = this.findToken(header(request, "authorization"));
    const address = request.socket.remoteAddress ?? "unknown";
    const isPublic = operation.security.public;
    const headers: Record<string, string> = {
      // An operation any valid token may call (getProfile) accepts every scope: `*`, as the real service says.
      "X-Accepted-OAuth-Scopes":
        isPublic || operation.security.scopes.length === 0 ? "*" : operation.security.scopes.join(" "),
    };
    const rate = limiter.take(isPublic || !token ? `ip:${address}` : `token:${token.id}`, operation);
    headers["X-RateLimit-Limit"] = String(rate.limit);
    headers["X-RateLimit-Remaining"] = String(rate.remaining);
    headers["X-RateLimit-Reset"] = String(rate.resetAt);
    if (!rate.allowed) return { reply: tooManyRequests(rate.retryAfter), headers };

    if (!isPublic) {
      if (!token || this.services.behaviour.tokenExpired(token, clock.now())) {
        return { reply: invalidToken(), headers };
      }
      headers["X-OAuth-Scopes"] = token.scopes;
      headers["X-Customer-UUID"] = state.user.uuid;
      if (!this.services.behaviour.scopeAllows(token.scopes, operation.security.scopes)) {
        return { reply: forbidden(), headers };
      }
    }

    let list: ListQuery | undefined;
    if (operation.paginated) {
      const parsed = this.services.behaviour.parseListQuery(
        operation,
        url.searchParams,
        header(request, "x-filter"),
      );
      if (!parsed.ok) return { reply: badRequest(parsed.errors), headers };
      list = parsed.list;
    }

    const body = await this.readBody(request, operation);
    if (body.kind === "refused") return { reply: body.reply, headers };

    const caller: Caller = { token, address };
    const context: HandlerContext = {
      operation,
      params: pathParams,
      query: url.searchParams,
      body: body.value,
      headers: request.headers,
      list,
      caller,
      state,
      clock,
      timeScale: this.services.timeScale,
      events: this.services.events,
      health: this.services.health,
      dataPlane: this.services.dataPlane,
      urls: this.services.urls,
      behaviour: this.services.behaviour,
    };
    const handler = this.services.handlers[operation.operationId];
    if (!handler) {
      return { reply: errorReply(501, [{ reason: `${operation.operationId} is not implemented` }]), headers };
    }
    return { reply: await handler(context), headers };
  }

  private findToken(authorization: string | undefined): TokenRecord | undefined {
    const match = authorization ? bearer.exec(authorization) : null;
    return match ? this.services.state.tokens.get(match[1]!) : undefined;
  }

  private async readBody(
    request: IncomingMessage,
    operation: OperationInfo,
  ): Promise<{ kind: "ok"; value: unknown } | { kind: "refused"; reply: Reply }> {
    const raw = await readRaw(request, this.services.maxBodyBytes);
    const declared = operation.requestBody;
    if (!declared) return { kind: "ok", value: undefined };
    if (raw === "too-large") return { kind: "refused", reply: payloadTooLarge(this.services.maxBodyBytes) };
    const parsed = await parseBody(raw, header(request, "content-type"), declared.contentTypes);
    switch (parsed.kind) {
      case "unsupported":
        return {
          kind: "refused",
          reply: badRequest([
            { reason: reasons.unsupportedMediaType(parsed.contentType, declared.contentTypes) },
          ]),
        };
      case "malformed":
        return { kind: "refused", reply: badRequest([{ reason: parsed.reason }]) };
      case "empty":
        if (!declared.required) return { kind: "ok", value: undefined };
        return this.validate(operation, {}, declared.contentTypes[0]);
      default:
        return this.validate(operation, parsed.value, mediaType(header(request, "content-type")));
    }
  }

  private validate(
    operation: OperationInfo,
    value: unknown,
    contentType: string | undefined,
  ): { kind: "ok"; value: unknown } | { kind: "refused"; reply: Reply } {
    const validator = this.services.spec.validators.request(operation.operationId, contentType);
    const outcome = validator ? validator(value) : { valid: true as const };
    if (outcome.valid) return { kind: "ok", value };
    // A value the description says is refused naming no field is left to the handler, which says why in the
    // service's words (allocateIP's `type`).
    const unnamed = (issue: ValidationIssue) =>
      refusedWithoutField(this.services.spec, operation.operationId, parsePointer(issue.instancePath) ?? []);
    const named = outcome.issues.filter((issue) => !unnamed(issue));
    if (named.length === 0) return { kind: "ok", value };
    const withoutField = issuesToErrors(outcome.issues.filter(unnamed)).map(({ reason }) => ({ reason }));
    return { kind: "refused", reply: badRequest([...issuesToErrors(named), ...withoutField]) };
  }
}
