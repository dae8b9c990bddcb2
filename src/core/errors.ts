/**
 * Unexpected failures: the toolkit could not do its job. Expected failures (a check that fails,
 * a body that does not validate) are values, never these. Each class carries a stable `code`
 * that scripts and tests may match on; messages may change, codes may not.
 * @module
 */
import { type HandledSignal, signalExitCodes } from "./exit-codes.ts";

export type ToolkitErrorCode =
  | "SPEC_LOAD"
  | "SPEC_INVALID"
  | "SPEC_UNSUPPORTED"
  | "CONFIG_INVALID"
  | "TARGET_UNREACHABLE"
  | "TARGET_NOT_THIS_API"
  | "TOKEN_REFUSED"
  | "TRANSPORT_TIMEOUT"
  | "RESPONSE_TOO_LARGE"
  | "WAIT_TOO_LONG"
  | "RUN_TIME_LIMIT"
  | "SUITE_LOAD"
  | "SUITE_REQUEST_INVALID"
  | "NOTHING_RAN"
  | "INTERRUPTED"
  | "INTERNAL";

const brand = Symbol.for("conform.error");

export class ToolkitError extends Error {
  readonly code: ToolkitErrorCode;
  readonly [brand] = true;

  constructor(code: ToolkitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /** True for toolkit errors from any copy of this module (brand, not instanceof). */
  static is(value: unknown): value is ToolkitError {
    return typeof value === "object" && value !== null && brand in value;
  }
}

/** A description could not be read or parsed (missing file, bad YAML, unreachable URL). */
export class SpecLoadError extends ToolkitError {
  readonly source: string;
  constructor(source: string, message: string, options?: { cause?: unknown }) {
    super("SPEC_LOAD", message, options);
    this.source = source;
  }
}

/** A description was read but is not a valid OpenAPI/Swagger document; `pointer` says where. */
export class SpecInvalidError extends ToolkitError {
  readonly source: string;
  readonly problems: readonly { pointer: string; message: string }[];
  constructor(source: string, problems: readonly { pointer: string; message: string }[]) {
    const first = problems[0];
    const where = first ? ` at ${first.pointer || "/"}: ${first.message}` : "";
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    super("SPEC_INVALID", `invalid API description ${source}${where}${more}`);
    this.source = source;
    this.problems = problems;
  }
}

/** A valid description that uses something the toolkit cannot handle (e.g. an OpenAPI 4 draft). */
export class SpecUnsupportedError extends ToolkitError {
  constructor(message: string) {
    super("SPEC_UNSUPPORTED", message);
  }
}

/** Bad command-line arguments or config file content. */
export class ConfigError extends ToolkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("CONFIG_INVALID", message, options);
  }
}

/**
 * The target asked for a wait beyond the run's ceiling (`--max-wait`): a `Retry-After` or a rate-limit window
 * resetting far away. The request is not sent (again); the case errors saying so instead of hanging the run.
 */
export class WaitTooLongError extends ToolkitError {
  constructor(message: string) {
    super("WAIT_TOO_LONG", message);
  }
}

/** A suite file could not be loaded or does not export a suite. */
export class SuiteLoadError extends ToolkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("SUITE_LOAD", message, options);
  }
}

/** The target did not answer at all (connection refused, DNS, TLS, timeout). */
export class TargetUnreachableError extends ToolkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("TARGET_UNREACHABLE", message, options);
  }
}

/**
 * The target answers, but not like the described API (the preflight: its public list is not found, not JSON, or
 * not a list): most often a base URL with the wrong path. Judging it would give a failure for every request.
 */
export class TargetMismatchError extends ToolkitError {
  constructor(message: string) {
    super("TARGET_NOT_THIS_API", message);
  }
}

/** The target refused the run's token (401 on an operation that needs one): every case would fail for it alone. */
export class TokenRefusedError extends ToolkitError {
  constructor(message: string) {
    super("TOKEN_REFUSED", message);
  }
}

/** The selection left nothing to run: a green report of nothing must not pass a CI gate. */
export class NothingRanError extends ToolkitError {
  constructor(message: string) {
    super("NOTHING_RAN", message);
  }
}

/**
 * The run was interrupted by a signal: the reason its abort signal carries, so whoever reads the signal (the engine,
 * for the exit code) knows which one.
 */
export class RunInterrupted extends ToolkitError {
  readonly signal: HandledSignal;
  constructor(signal: HandledSignal) {
    super("INTERRUPTED", `the run was interrupted (${signal})`);
    this.signal = signal;
  }

  /** 130 for SIGINT, 143 for SIGTERM. */
  get exitCode(): number {
    return signalExitCodes[this.signal];
  }
}

/**
 * The run reached `--max-time`: the reason its abort signal carries. It ends like an interruption (cases in flight
 * end `interrupted`, cleanup runs, the reports say `complete: false`), but with exit code 2: the toolkit could not
 * finish its job within the time it was given, and no verdict on the unrun rest exists.
 */
export class RunTimedOut extends ToolkitError {
  readonly limitMs: number;
  constructor(limitMs: number) {
    super("RUN_TIME_LIMIT", `the run reached its time limit of ${limitMs} ms (--max-time)`);
    this.limitMs = limitMs;
  }
}

/**
 * A suite was about to send, as a valid request, one that does not follow the description (a body its schema
 * refuses, a media type or parameter it does not declare): a defect of the suite, never sent. `rule` names the
 * rule broken (`body-schema`, `media-type`, `parameter-schema` ...), `field` where (`label`, `query.page_size`).
 * A deliberately invalid request says what it breaks instead (`breaks` in its options) and is sent as is.
 */
export class SuiteRequestError extends ToolkitError {
  readonly operationId: string;
  readonly rule: string;
  readonly field: string;
  constructor(
    request: { method: string; path: string; operationId: string },
    rule: string,
    field: string,
    why: string,
  ) {
    const where = field === "" ? "" : ` ${field}:`;
    super(
      "SUITE_REQUEST_INVALID",
      `the suite's request ${request.method} ${request.path} (${request.operationId}) does not follow the ` +
        `description, rule ${rule}:${where} ${why}; not sent (send a valid request, or mark a deliberately ` +
        `invalid one with breaks: "<the rule it breaks>")`,
    );
    this.operationId = request.operationId;
    this.rule = rule;
    this.field = field;
  }
}
