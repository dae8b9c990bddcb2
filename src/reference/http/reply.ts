/**
 * What a handler answers: a plain value the pipeline turns into an HTTP response. Handlers never write to the
 * socket themselves, so headers common to every answer are added in one place.
 * @module
 */

export interface ApiErrorItem {
  readonly reason: string;
  /** Omitted (not null) when no single input field is at fault (facts.md). */
  readonly field?: string;
}

export interface Reply {
  readonly status: number;
  /** JSON-serialised unless `raw` is set. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** A body sent as is (the login page's HTML); `headers` then carries its content type. */
  readonly raw?: string;
}

export function ok(body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status: 200, body, headers } : { status: 200, body };
}

export function errorReply(
  status: number,
  errors: readonly ApiErrorItem[],
  headers?: Record<string, string>,
): Reply {
  return headers ? { status, body: { errors }, headers } : { status, body: { errors } };
}

/** 400 with every problem found, each naming its field where there is one. */
export function badRequest(errors: readonly ApiErrorItem[]): Reply {
  return errorReply(400, errors);
}

export function fieldError(field: string, reason: string): ApiErrorItem {
  return { reason, field };
}
