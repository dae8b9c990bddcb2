/**
 * The preflight: before the suites run against a base URL, one public list of the loaded description is read there
 * without a token. A target that does not answer like this API stops the run (exit 2) saying what was tried and
 * what came back, instead of one conformance failure per request: most often a base URL with the wrong path.
 *
 * "Like this API" is judged loosely on purpose: what the described path answers must be found (not 404) and JSON;
 * a success must be a list (an object with a `data` array), any other status the description's error body. A
 * list that lacks `results` or a 500 with the error body is this API with a defect: the suites judge those.
 * @module
 */
import { TargetMismatchError, TokenRefusedError } from "../core/errors.ts";
import { conventionsOf } from "../spec/conventions.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";

/**
 * The list the preflight reads: a public GET list of the description without path parameters, the shortest path
 * first (the most top-level; `/regions` here), the description's order among equals.
 */
export function preflightList(spec: ApiSpec): OperationInfo | undefined {
  const lists = spec.operations
    .all()
    .filter(
      (operation) =>
        operation.method === "get" &&
        operation.paginated &&
        operation.security.public &&
        operation.serverUrl === undefined &&
        !operation.pathTemplate.includes("{"),
    );
  return lists.reduce<OperationInfo | undefined>(
    (best, operation) =>
      best === undefined || operation.pathTemplate.length < best.pathTemplate.length ? operation : best,
    undefined,
  );
}

/** What the preflight's request got back. */
export interface PreflightAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Why the answer is not this API's, or undefined when it looks like it (pure). */
export function preflightProblem(spec: ApiSpec, answer: PreflightAnswer): string | undefined {
  if (answer.status === 404) return "the described path is not there";
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return "the body is not JSON";
  }
  if (answer.status >= 200 && answer.status < 300) {
    return isRecord(body) && Array.isArray(body.data) ? undefined : "the body is not a list (no data array)";
  }
  const { list } = conventionsOf(spec).errorEnvelope;
  return isRecord(body) && Array.isArray(body[list])
    ? undefined
    : `a ${answer.status} without the description's error body (no ${list} array)`;
}

/** The first line of a body, shortened: enough to recognise what answered. */
function glimpse(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  if (line === "") return "an empty body";
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

export interface PreflightTransport {
  /** Sends a GET (with the token as a bearer when one is given); answers the status, content type and body text. */
  get(url: string, token?: string): Promise<PreflightAnswer>;
}

/**
 * The operation the token check reads: a GET of the description without path parameters that needs a token, the
 * shortest path first (`/profile` here).
 */
export function tokenCheckOperation(spec: ApiSpec): OperationInfo | undefined {
  return spec.operations
    .all()
    .filter(
      (operation) =>
        operation.method === "get" &&
        !operation.security.public &&
        operation.serverUrl === undefined &&
        !operation.pathTemplate.includes("{"),
    )
    .reduce<OperationInfo | undefined>(
      (best, operation) =>
        best === undefined || operation.pathTemplate.length < best.pathTemplate.length ? operation : best,
      undefined,
    );
}

/**
 * The run's token against a base URL: one the target refuses (401 on an operation that needs a token) stops the run
 * with exit 2, saying so, instead of a failure per request; a 403 (a token with fewer scopes) is the suites' to judge.
 * No token at all is what a run of public reads wants: answered as a warning for the run to show at its start.
 */
export async function checkToken(
  spec: ApiSpec,
  baseUrl: string,
  token: string | undefined,
  transport: PreflightTransport,
): Promise<string | undefined> {
  if (token === undefined) {
    return `no token for ${baseUrl}: cases that need one will be refused (401); set CONFORM_TOKEN, or name the variable that holds it with --token-env`;
  }
  const operation = tokenCheckOperation(spec);
  if (!operation) return undefined;
  const url = `${baseUrl.replace(/\/$/, "")}${operation.pathTemplate}`;
  const answer = await transport.get(url, token);
  if (answer.status !== 401) return undefined;
  throw new TokenRefusedError(
    `the target refused the token: GET ${url} (${operation.operationId}) answered 401, ${glimpse(answer.text)}; ` +
      "check CONFORM_TOKEN or --token-env (the token is not printed)",
  );
}

/**
 * Reads the description's public list at the base URL; throws a TargetMismatchError (exit 2) when the answer is not
 * this API's. Skipped, with nothing sent, when the description has no public list.
 */
export async function preflight(
  spec: ApiSpec,
  baseUrl: string,
  transport: PreflightTransport,
): Promise<void> {
  const list = preflightList(spec);
  if (!list) return;
  const url = `${baseUrl.replace(/\/$/, "")}${list.pathTemplate}`;
  const answer = await transport.get(url);
  const problem = preflightProblem(spec, answer);
  if (problem === undefined) return;
  const major = /^(\d+)\./.exec(spec.version)?.[1];
  const hint = major === undefined ? "" : ` (the description's paths follow a base URL such as …/v${major})`;
  throw new TargetMismatchError(
    `target ${baseUrl} does not answer like this API: GET ${url} (${list.operationId}, a public list) answered ` +
      `${answer.status} ${answer.contentType ?? "without a content type"}, ${glimpse(answer.text)}: ${problem}; ` +
      `check --base-url${hint}`,
  );
}
