/**
 * `content-type-json`: a response with a body says `Content-Type: application/json` (parameters allowed), as the
 * description's response headers and the spec's conventions have it, and a JSON body parses.
 * The operation may document another media type for a status (the login server's HTML form): then that holds.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import type { ResponseInfo } from "../spec/types.ts";
import { isJsonMediaType, parseMediaType } from "./_internals/http-values.ts";
import { documentedResponse, isHead } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

export const contentTypeJson: CheckDefinition = {
  id: "content-type-json",
  title: "Responses with a body are application/json",
  check({ operation }, exchange) {
    const { response } = exchange;
    // A HEAD answer has no content; its Content-Type describes the GET representation (RFC 9110 §9.3.2).
    if (isHead(exchange)) return skipped("HEAD responses carry no body (RFC 9110 §9.3.2)");
    const documented = operation && documentedResponse(operation, response.status);
    const documentedJson = documented ? jsonTypesOf(documented).types : noTypes;
    if (documented && documented.contentTypes.length > 0 && documentedJson.length === 0) {
      // The spec documents another media type here (e.g. the login server's text/html form): JSON is not expected.
      return skipped(
        `${operation.operationId} documents ${documented.contentTypes.join(", ")} for ${documented.status}, not JSON`,
      );
    }
    if (
      documented &&
      documented.contentTypes.length === 0 &&
      response.status >= 300 &&
      response.status < 400
    ) {
      // A redirect documented without content: any body is a short hypertext note for humans (RFC 9110 §15.4).
      return skipped(`${operation.operationId} documents no content for ${documented.status} (a redirect)`);
    }
    // Content-Type describes content; there is none to describe (RFC 9110 §8.3).
    if (response.bytes === 0 && response.text === "") return skipped("the response has no body");

    const expected = documented ? jsonTypesOf(documented).expected : justJson;
    const header = response.headers["content-type"];
    if (header === undefined) {
      return failed(`the response has a ${response.bytes}-byte body but no Content-Type`, {
        expected: "application/json",
        actual: undefined,
      });
    }
    const media = parseMediaType(header);
    if (!media || !expected.includes(media.essence)) {
      return failed(`Content-Type is ${header}, expected application/json`, {
        expected: "application/json",
        actual: header,
      });
    }
    const charset = media.parameters.charset;
    if (charset !== undefined && charset.toLowerCase() !== "utf-8") {
      return failed(
        `Content-Type charset is ${charset}: JSON exchanged between systems is UTF-8 (RFC 8259 §8.1)`,
        {
          expected: "application/json; charset=utf-8",
          actual: header,
        },
      );
    }
    if (response.json === undefined && !response.truncated && !parsesAsJson(response.text)) {
      return failed(`Content-Type is ${media.essence} but the body is not JSON`, {
        expected: "a JSON body",
        actual: response.text.slice(0, 200),
      });
    }
    return passed;
  },
};

const noTypes: readonly string[] = [];
const justJson: readonly string[] = ["application/json"];

/**
 * A documented response's JSON media types, and the essences an answer to it may be labelled with: read once per
 * response of the description (they live as long as it does), asked of every answer.
 */
const jsonTypesByResponse = new WeakMap<
  ResponseInfo,
  { readonly types: readonly string[]; readonly expected: readonly string[] }
>();

function jsonTypesOf(documented: ResponseInfo): {
  readonly types: readonly string[];
  readonly expected: readonly string[];
} {
  let known = jsonTypesByResponse.get(documented);
  if (!known) {
    const types = documented.contentTypes.filter(isJsonMediaType);
    known = {
      types,
      expected: ["application/json", ...types.map((type) => parseMediaType(type)?.essence ?? type)],
    };
    jsonTypesByResponse.set(documented, known);
  }
  return known;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
