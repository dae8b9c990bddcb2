/**
 * Whether a request a case means to be valid follows the description, before it is sent: the operation it hits
 * (unknown paths, methods and origins are not checked), a body where the operation declares none or none where it
 * requires one, the media type among the request body's, the JSON (or form) body against the request schema
 * (the spec's compiled validators), required query parameters and a light check of query and path parameter
 * values (type, enum, bounds, lengths). Header parameters (the filter) are not checked.
 *
 * Runs on every request of a run: a request without a body is judged once per method and URL, and an operation
 * with no query parameter and unconstrained path parameters costs one lookup.
 * @module
 */
import { BoundedMemo } from "../core/bounded-memo.ts";
import type { ApiSpec, JsonSchema, OperationInfo, OperationMatch } from "../spec/types.ts";
import { operationMatchOf } from "./operation-matcher.ts";
import type { TargetInfo } from "./suite-api.ts";

/** What the case asked to send, before it is serialised. */
export interface RequestToCheck {
  readonly method: string;
  /** Absolute URL, query included. */
  readonly url: string;
  /** The request's content type, as sent. */
  readonly contentType: string | undefined;
  /** The body: a JSON value, form fields, raw text, or none. */
  readonly payload:
    | { readonly kind: "json"; readonly value: unknown }
    | { readonly kind: "form"; readonly fields: Readonly<Record<string, string>> }
    | { readonly kind: "raw"; readonly text: string }
    | undefined;
}

/** The rules a request can break, by stable name. */
export type RequestRule =
  | "body-not-declared"
  | "body-required"
  | "media-type"
  | "body-not-json"
  | "body-schema"
  | "parameter-required"
  | "parameter-schema";

/** How a request breaks the description: the operation, the rule, where (`label`, `query.page`) and why. */
export interface RequestBreach {
  readonly operationId: string;
  readonly rule: RequestRule;
  readonly field: string;
  readonly message: string;
}

/** A checker for requests to `target` as `spec` describes them: undefined when the request conforms. */
export function requestConformance(
  spec: ApiSpec,
  target: TargetInfo,
): (request: RequestToCheck) => RequestBreach | undefined {
  const matchOf = operationMatchOf(spec, target);
  const bodiless = new BoundedMemo<string, RequestBreach | undefined>(4096);
  return (request) => {
    if (request.payload === undefined) {
      return bodiless.get(`${request.method} ${request.url}`, () => judge(spec, matchOf, request));
    }
    return judge(spec, matchOf, request);
  };
}

function judge(
  spec: ApiSpec,
  matchOf: (method: string, url: string) => OperationMatch | undefined,
  request: RequestToCheck,
): RequestBreach | undefined {
  const match = matchOf(request.method, request.url);
  if (!match) return undefined;
  const { operation } = match;
  const breach = (rule: RequestRule, field: string, message: string): RequestBreach => ({
    operationId: operation.operationId,
    rule,
    field,
    message,
  });
  return (
    parametersBreach(operation, match, request.url, breach) ?? bodyBreach(spec, operation, request, breach)
  );
}

type Breach = (rule: RequestRule, field: string, message: string) => RequestBreach;

function parametersBreach(
  operation: OperationInfo,
  match: OperationMatch,
  url: string,
  breach: Breach,
): RequestBreach | undefined {
  let query: URLSearchParams | undefined;
  for (const parameter of operation.parameters) {
    if (parameter.in === "path") {
      const value = match.pathParams[parameter.name];
      const why = value === undefined ? undefined : valueProblem(parameter.schema, String(value));
      if (why) return breach("parameter-schema", `path.${parameter.name}`, why);
    } else if (parameter.in === "query") {
      query ??= new URL(url).searchParams;
      const values = query.getAll(parameter.name);
      if (values.length === 0) {
        if (parameter.required) {
          return breach(
            "parameter-required",
            `query.${parameter.name}`,
            "a required query parameter is missing",
          );
        }
        continue;
      }
      for (const value of values) {
        const why = valueProblem(parameter.schema, value);
        if (why) return breach("parameter-schema", `query.${parameter.name}`, why);
      }
    }
  }
  return undefined;
}

function bodyBreach(
  spec: ApiSpec,
  operation: OperationInfo,
  request: RequestToCheck,
  breach: Breach,
): RequestBreach | undefined {
  const { payload } = request;
  const declared = operation.requestBody;
  if (payload === undefined) {
    return declared?.required
      ? breach("body-required", "", "the operation requires a request body")
      : undefined;
  }
  if (!declared) return breach("body-not-declared", "", "the operation declares no request body");
  const type = essence(request.contentType ?? "");
  if (!declared.contentTypes.some((declaredType) => mediaTypeFits(essence(declaredType), type))) {
    return breach(
      "media-type",
      "content-type",
      `${type || "no content type"} is not among the request body's media types (${declared.contentTypes.join(", ")})`,
    );
  }
  let value: unknown;
  if (payload.kind === "json") value = payload.value;
  else if (payload.kind === "form") value = { ...payload.fields };
  else if (isJsonType(type)) {
    try {
      value = JSON.parse(payload.text);
    } catch {
      return breach("body-not-json", "", "the body is not JSON");
    }
  } else if (type === "application/x-www-form-urlencoded")
    value = Object.fromEntries(new URLSearchParams(payload.text));
  else return undefined; // multipart and other encodings: the media type was all there is to check
  const validate = spec.validators.request(operation.operationId, request.contentType);
  const outcome = validate?.(value);
  if (!outcome || outcome.valid) return undefined;
  // A schema the description holds but no validator compiles judges nothing (the spec notes it elsewhere).
  const issue = outcome.issues.find((entry) => entry.keyword !== "schema");
  if (!issue) return undefined;
  return breach("body-schema", issue.field, `${issue.message} (${issue.keyword})`);
}

/** What is wrong with a parameter's text value under its schema (type, enum, bounds, lengths); undefined if fine. */
export function valueProblem(schema: JsonSchema | undefined, value: string): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const shape = schema as Readonly<Record<string, unknown>>;
  const types = Array.isArray(shape.type) ? shape.type : shape.type === undefined ? [] : [shape.type];
  let number: number | undefined;
  if (types.includes("integer") || types.includes("number")) {
    const pattern = types.includes("number") ? /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/ : /^-?\d+$/;
    if (pattern.test(value)) number = Number(value);
    else if (!types.includes("string"))
      return `${JSON.stringify(value)} is not ${types.includes("number") ? "a number" : "an integer"}`;
  } else if (
    types.includes("boolean") &&
    !types.includes("string") &&
    value !== "true" &&
    value !== "false"
  ) {
    return `${JSON.stringify(value)} is not a boolean`;
  }
  if (Array.isArray(shape.enum) && !shape.enum.some((allowed) => String(allowed) === value)) {
    return `${JSON.stringify(value)} is not one of ${shape.enum.map(String).join(", ")}`;
  }
  if (number !== undefined) {
    if (typeof shape.minimum === "number" && number < shape.minimum)
      return `${value} is below the minimum ${shape.minimum}`;
    if (typeof shape.maximum === "number" && number > shape.maximum)
      return `${value} is above the maximum ${shape.maximum}`;
    if (typeof shape.exclusiveMinimum === "number" && number <= shape.exclusiveMinimum)
      return `${value} is not above ${shape.exclusiveMinimum}`;
    if (typeof shape.exclusiveMaximum === "number" && number >= shape.exclusiveMaximum)
      return `${value} is not below ${shape.exclusiveMaximum}`;
  } else if (types.length === 0 || types.includes("string")) {
    if (typeof shape.minLength === "number" && value.length < shape.minLength)
      return `${JSON.stringify(value)} is shorter than ${shape.minLength}`;
    if (typeof shape.maxLength === "number" && value.length > shape.maxLength)
      return `${JSON.stringify(value)} is longer than ${shape.maxLength}`;
  }
  return undefined;
}

function mediaTypeFits(declared: string, sent: string): boolean {
  if (declared === sent || declared === "*/*") return true;
  return declared.endsWith("/*") && sent.startsWith(declared.slice(0, -1));
}

function isJsonType(type: string): boolean {
  return /^application\/([\w.+-]*\+)?json$/.test(type);
}

/** `Application/JSON; charset=utf-8` → `application/json`. */
function essence(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}
