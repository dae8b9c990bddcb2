/**
 * The intent of a request conform did not make (a client's, through `conform proxy`; a recording's without
 * `_conform.intent`), read from the description: its path parameters, query, declared headers and JSON body
 * checked against their schemas with the spec's compiled validators. Valid → `positive`; else `negative` with the
 * rules broken, as the generators write them (`in`, `at`, the rule). Where the description cannot tell (a redacted
 * or unreadable body, a body in a type it gives no schema for), no intent: the request stays unjudged.
 *
 * A positive one says what a client's request leaves open, as a generated one does: every path value may name a
 * resource that is really absent (`drawnPath`), a header declared as a free object (`X-Filter`) follows rules of
 * its own (the filterable fields), and a write may be refused by rules the description states in prose (unique
 * labels, referenced resources, fields together, a resource's state), so its refusal is not judged.
 * @module
 */

import { isDocumentationAddress } from "../checks/_internals/documentation-address.ts";
import type { BrokenRule, RecordedRequest, RequestIntent } from "../core/exchange.ts";
import { valueAt } from "../spec/pointer.ts";
import { isWrittenInUtc } from "../spec/times.ts";
import type { ApiSpec, OperationInfo, ParameterInfo, ValidationIssue } from "../spec/types.ts";

/** The scenario of an intent read from the description, not drawn by a generator. */
export const observedScenario = "observed";

/** A rule broken, with why the real service may take it anyway (not part of the intent). */
type Broken = BrokenRule & { readonly lax?: string };

/** Why an observed write's refusal is not judged. */
const writeInProse =
  "a client's write may be refused by rules the description states in prose (a unique label, a referenced resource, fields together, the resource's state)";

/** Header parameters OpenAPI says to ignore: the client sets them. */
const ignoredHeaders = new Set(["accept", "content-type", "authorization"]);

/** ajv keywords → the generators' rule names (`mutations/`); any other keyword is `violate-<keyword>`. */
const ruleOfKeyword: Readonly<Record<string, string>> = {
  required: "remove-required-property",
  dependentRequired: "remove-required-property",
  enum: "violate-enum",
  const: "violate-enum",
  pattern: "violate-pattern",
  format: "violate-pattern",
  discriminator: "violate-discriminator",
  ...Object.fromEntries(
    [
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "exclusiveMaximum",
      "multipleOf",
      "minLength",
      "maxLength",
      "minItems",
      "maxItems",
      "minProperties",
      "maxProperties",
      "uniqueItems",
    ].map((keyword) => [keyword, "violate-bound"]),
  ),
};

function ruleOf(issue: ValidationIssue, value: unknown): string {
  if (issue.keyword === "type") return value === null ? "null-where-not-nullable" : "change-type";
  return (
    ruleOfKeyword[issue.keyword] ?? `violate-${issue.keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
  );
}

/** An issue in a few words: a pattern is named, not quoted (the description's address pattern fills a line). */
const detailOf = (issue: ValidationIssue) =>
  issue.keyword === "pattern" ? "does not match the description's pattern" : issue.message;

/**
 * Why a value that breaks the description may still be what the real service takes, where that is known: a time
 * in the API's own format (no zone designator, read as UTC) where the description asks an offset, and a recorder's
 * placeholder where a value was (a sanitised cassette writes `192.0.2.0` for every address). Undefined otherwise.
 */
function laxReading(issue: ValidationIssue, value: unknown, recorded: boolean): string | undefined {
  if (typeof value !== "string") return undefined;
  if (issue.keyword === "format" && issue.params.format === "date-time" && isWrittenInUtc(value))
    return `a time written as the API writes its own (${value}, no zone designator), which the real service reads as UTC`;
  if (recorded && isDocumentationAddress(value))
    return `an address reserved for documentation (${value}): a recorder's placeholder for what was sent`;
  return undefined;
}

/** Whether a schema holds any rule (`{}`, `true` or none allows every value). */
const hasRules = (schema: ParameterInfo["schema"]) =>
  typeof schema === "object" ? Object.keys(schema).length > 0 : schema === false;

/** Issues that say our validator failed, not the value: nothing to tell from them. */
const unjudgeable = (issues: readonly ValidationIssue[]) =>
  issues.some((issue) => issue.keyword === "schema" || issue.keyword === "exception");

/**
 * The readings of a parameter's text a server may make (the text; a number, a boolean, JSON such as a header's
 * filter object; each also as a list of one), most typed first, so a refusal's issues are the typed reading's.
 */
function readingsOf(text: string): unknown[] {
  const readings: unknown[] = [];
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) readings.push(Number(text));
  if (text === "true" || text === "false") readings.push(text === "true");
  if (/^\s*[[{]/.test(text)) {
    try {
      readings.push(JSON.parse(text));
    } catch {
      // Not JSON: only the text itself.
    }
  }
  readings.push(text);
  return [...readings, ...readings.map((reading) => [reading])];
}

/** An observed request, with what the judgement reads of it. */
interface Observed {
  readonly spec: ApiSpec;
  readonly operation: OperationInfo;
  readonly request: RecordedRequest;
  readonly url: URL;
  /** Read from a recording (whose recorder may have sanitised values), not seen live. */
  readonly recorded: boolean;
}

/**
 * The rules a parameter's text breaks: none when any reading of it satisfies its schema; undefined when its schema
 * cannot be judged here (Swagger 2.0 keeps it on the parameter, with no pointer to compile; one ajv cannot compile).
 */
function parameterBreaks(observed: Observed, parameter: ParameterInfo, text: string): Broken[] | undefined {
  const { spec, operation, recorded } = observed;
  const validate = spec.validators.parameter(operation.operationId, parameter.in, parameter.name);
  if (!validate) return hasRules(parameter.schema) ? undefined : [];
  const readings = readingsOf(text);
  const first = readings[0];
  const outcome = validate(first);
  if (outcome.valid || readings.slice(1).some((reading) => validate(reading).valid)) return [];
  if (unjudgeable(outcome.issues)) return undefined;
  const issue = outcome.issues[0];
  const lax = issue && laxReading(issue, text, recorded);
  return [
    {
      in: parameter.in,
      at: parameter.name,
      rule: issue ? ruleOf(issue, first) : "change-type",
      detail: `${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text)}${issue ? `: ${detailOf(issue)}` : ""}`,
      ...(lax ? { lax } : {}),
    },
  ];
}

/** Each operation's path template as a pattern matching a path's end (the base path varies), with its names. */
const templatePatterns = new WeakMap<OperationInfo, { readonly pattern: RegExp; readonly names: string[] }>();

function templatePattern(operation: OperationInfo) {
  let found = templatePatterns.get(operation);
  if (!found) {
    const names: string[] = [];
    const source = operation.pathTemplate
      .split(/(\{[^{}]+\})/)
      .map((part) => {
        const name = /^\{([^{}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(name);
        return "([^/]+)";
      })
      .join("");
    found = { pattern: new RegExp(`${source}/?$`), names };
    templatePatterns.set(operation, found);
  }
  return found;
}

/** The path parameters' texts, read off the URL's path by the operation's template. */
function pathValues(operation: OperationInfo, pathname: string): Map<string, string> | undefined {
  const { pattern, names } = templatePattern(operation);
  const found = pattern.exec(pathname);
  if (!found) return undefined;
  try {
    return new Map(names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? "")]));
  } catch {
    return undefined;
  }
}

/**
 * Whether the description leaves a parameter's value open: a header (`X-Filter` is any object; its keys follow the
 * filterable fields), or text with no enum (a client id, a redirect URI: what it names must exist or match).
 */
function isOpen(parameter: ParameterInfo): boolean {
  if (parameter.in === "header") return true;
  const schema = typeof parameter.schema === "object" ? parameter.schema : {};
  const type = schema.type;
  const textual = type === undefined || type === "string" || (Array.isArray(type) && type.includes("string"));
  return textual && schema.enum === undefined && schema.const === undefined;
}

/** The value a parameter was sent with, or undefined when it was not sent. */
function sentValue({ request, url }: Observed, parameter: ParameterInfo, path: Map<string, string>) {
  if (parameter.in === "path") return path.get(parameter.name);
  if (parameter.in === "query")
    return url.searchParams.has(parameter.name) ? url.searchParams.getAll(parameter.name) : undefined;
  if (parameter.in === "header") return request.headers[parameter.name.toLowerCase()];
  return undefined;
}

/** The rules the request's parameters break (cookies are not read); undefined when one sent cannot be judged. */
function parametersBreak(observed: Observed, path: Map<string, string>): Broken[] | undefined {
  const broken: Broken[] = [];
  for (const parameter of observed.operation.parameters) {
    if (parameter.in === "cookie") continue;
    if (parameter.in === "header" && ignoredHeaders.has(parameter.name.toLowerCase())) continue;
    const sent = sentValue(observed, parameter, path);
    if (sent === undefined) {
      if (parameter.required)
        broken.push({
          in: parameter.in,
          at: parameter.name,
          rule: "remove-required-property",
          detail: "not sent",
        });
      continue;
    }
    for (const text of typeof sent === "string" ? [sent] : sent) {
      const breaks = parameterBreaks(observed, parameter, text);
      if (!breaks) return undefined;
      broken.push(...breaks);
    }
  }
  return broken;
}

/** The rules the JSON body breaks; undefined when the description cannot tell (unreadable, no schema for its type). */
function bodyBreaks({ spec, operation, request, recorded }: Observed): Broken[] | undefined {
  const declared = operation.requestBody;
  const text = request.body ?? "";
  if (!declared) return [];
  if (text.trim() === "")
    return declared.required
      ? [{ in: "body", at: "", rule: "remove-required-property", detail: "no body sent" }]
      : [];
  const validate = spec.validators.request(operation.operationId, request.headers["content-type"]);
  if (!validate) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Cut by a recorder, or not JSON at all: what was sent is not known.
    return undefined;
  }
  const outcome = validate(body);
  if (outcome.valid) return [];
  if (unjudgeable(outcome.issues)) return undefined;
  return outcome.issues.map((issue) => {
    const value = valueAt(body, issue.instancePath);
    const missing = issue.params.missingProperty;
    const at =
      typeof missing === "string"
        ? `${issue.instancePath}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`
        : issue.instancePath;
    const lax = laxReading(issue, value, recorded);
    return { in: "body", at, rule: ruleOf(issue, value), detail: detailOf(issue), ...(lax ? { lax } : {}) };
  });
}

/** Whether recording redacted part of what the request sent (its body, its query): its values are not known. */
function redacted(request: RecordedRequest, url: URL): boolean {
  return (request.body ?? "").includes("REDACTED") || url.search.includes("REDACTED");
}

/**
 * A negative intent; where every rule broken is one the real service is known to take ({@link laxReading}), its
 * acceptance is not judged (`undecidable`), while the request still counts as invalid.
 */
function negativeIntent(operationId: string, broken: readonly Broken[]): RequestIntent {
  const lax = broken.every((rule) => rule.lax !== undefined);
  return {
    operationId,
    mode: "negative",
    scenario: observedScenario,
    broken: broken.map(({ lax: _lax, ...rule }) => rule),
    ...(lax
      ? {
          undecidable: `the real service is known to take it: ${[...new Set(broken.map((rule) => rule.lax))].join("; ")}`,
        }
      : {}),
  };
}

/**
 * The intent of an observed request to `operationId` read from the description, or undefined when it cannot tell;
 * `recorded`: it comes from a recording, whose recorder may have put placeholders where values were.
 */
export function observedIntentOf(
  spec: ApiSpec,
  operationId: string,
  request: RecordedRequest,
  recorded = false,
): RequestIntent | undefined {
  const operation = spec.operations.byId(operationId);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return undefined;
  }
  if (!operation || redacted(request, url)) return undefined;
  const observed: Observed = { spec, operation, request, url, recorded };
  const path = pathValues(operation, url.pathname);
  const parameters = path && parametersBreak(observed, path);
  const body = bodyBreaks(observed);
  if (!path || !parameters || !body) return undefined;
  const broken = [...parameters, ...body];
  if (broken.length > 0) return negativeIntent(operationId, broken);
  const free = operation.parameters
    .filter(
      (parameter) => parameter.in !== "path" && isOpen(parameter) && sentValue(observed, parameter, path),
    )
    .map((parameter) => parameter.name);
  const read = ["get", "head"].includes(request.method.toLowerCase());
  return {
    operationId,
    mode: "positive",
    scenario: observedScenario,
    ...(path.size > 0 ? { drawnPath: [...path.keys()] } : {}),
    ...(free.length > 0 ? { unpinned: free } : {}),
    ...(read ? {} : { undecidable: writeInProse }),
  };
}
