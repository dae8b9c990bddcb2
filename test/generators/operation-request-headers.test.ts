/**
 * Header and cookie parameters in the generic generators: required ones are sent (an operation needing one is no
 * longer unbuildable), every value is text that travels as it is (visible ASCII, no space at either end, none of a
 * cookie's separators), `Accept`, `Content-Type` and `Authorization` parameters are ignored as OpenAPI says, and
 * invalid requests break a header's or a cookie's rule in text the target receives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { travelsAsIs } from "../../src/generators/_internals/request-schema.ts";
import { operationRequest, unbuildableRequest } from "../../src/generators/operation-request.ts";
import {
  breakableIn,
  brokenRulesOf,
  operationRequestInvalid,
  operationRequestInvalidOrNone,
} from "../../src/generators/operation-request-invalid.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { writeSpec } from "../spec/helpers.ts";

const description = {
  openapi: "3.1.0",
  info: { title: "headers", version: "1" },
  servers: [{ url: "https://api.example.test/v1" }],
  paths: {
    "/jobs": {
      get: {
        operationId: "listJobs",
        parameters: [
          {
            name: "X-Request-Id",
            in: "header",
            required: true,
            schema: { type: "string", pattern: "^[a-f0-9]{8}$" },
          },
          { name: "X-Dry-Run", in: "header", schema: { type: "boolean" } },
          { name: "host", in: "query", required: true, schema: { type: "string" } },
          { name: "X-Note", in: "header", schema: { type: "string", maxLength: 20 } },
          {
            name: "session",
            in: "cookie",
            required: true,
            schema: { type: "string", minLength: 4, maxLength: 12 },
          },
          { name: "Accept", in: "header", required: true, schema: { type: "string", enum: ["text/csv"] } },
          {
            name: "X-Filter",
            in: "header",
            content: { "application/json": { schema: { type: "object" } } },
          },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/plain": {
      get: { operationId: "getPlain", responses: { "200": { description: "ok" } } },
    },
  },
};

const spec = await loadSpec(writeSpec(description, "headers.json"));
const listJobs = spec.operations.byId("listJobs")!;

const traveller = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/;

describe("header and cookie parameters", () => {
  it("an operation with a required header or cookie gets requests", () => {
    expect(unbuildableRequest(spec, listJobs)).toBeUndefined();
  });

  it("valid requests send required headers and cookies as text that travels, and no ignored header", () => {
    for (const minimal of [true, false]) {
      const samples = fc.sample(operationRequest(spec, listJobs, { minimal }), { numRuns: 50, seed: 4 });
      for (const { value } of samples) {
        expect(value.headers["X-Request-Id"]).toMatch(/^[a-f0-9]{8}$/);
        expect(value.cookies.session!.length).toBeGreaterThanOrEqual(4);
        expect(value.headers).not.toHaveProperty("Accept");
        expect(value.headers).not.toHaveProperty("X-Filter");
        for (const text of [...Object.values(value.headers), ...Object.values(value.cookies)])
          expect(text).toMatch(traveller);
        for (const text of Object.values(value.cookies)) expect(text).not.toMatch(/[";,\\]/);
        if (minimal) expect(Object.keys(value.headers)).toEqual(["X-Request-Id"]);
        // OpenAPI allows `?host=` only with allowEmptyValue: a server reads it as no value.
        expect(String(value.query.host)).not.toBe("");
      }
    }
  });

  it.each(["header", "cookie"] as const)(
    "invalid requests break a %s's rule in text the target receives",
    (part) => {
      expect(breakableIn(spec, listJobs, part)).toBe(true);
      const samples = fc.sample(operationRequestInvalid(spec, listJobs, { parts: [part] }), {
        numRuns: 40,
        seed: 9,
      });
      const rules = new Set<string>();
      for (const generated of samples) {
        const [broken] = brokenRulesOf(generated.meta);
        expect(broken!.in).toBe(part);
        rules.add(broken!.rule);
        const sent = part === "header" ? generated.value.headers : generated.value.cookies;
        const text = sent[broken!.at];
        if (broken!.rule === "remove-required-property") expect(text).toBeUndefined();
        else expect(travelsAsIs(part, text!), `${broken!.at}: ${JSON.stringify(text)}`).toBe(true);
      }
      expect(rules.size).toBeGreaterThan(1);
    },
  );

  it("where no rule can be broken, the draw says so instead of searching without end", () => {
    const plain = spec.operations.byId("getPlain")!;
    const drawn = fc.sample(operationRequestInvalidOrNone(spec, plain, { parts: ["header"] }), {
      numRuns: 3,
      seed: 1,
    });
    expect(drawn).toEqual([undefined, undefined, undefined]);
  });

  it.each([
    { part: "header", text: "abc 12", travels: true },
    { part: "header", text: " abc", travels: false },
    { part: "header", text: "abc\t", travels: false },
    { part: "header", text: "a\nb", travels: false },
    { part: "header", text: "é", travels: false },
    { part: "header", text: "", travels: false },
    { part: "cookie", text: "abc", travels: true },
    { part: "cookie", text: "a b", travels: false },
    { part: "cookie", text: "a;b", travels: false },
    { part: "cookie", text: 'a"b', travels: false },
    { part: "query", text: " a;b ", travels: true },
  ] as const)("$part $text travels as it is: $travels", ({ part, text, travels }) => {
    expect(travelsAsIs(part, text)).toBe(travels);
  });
});
