/**
 * The typed readers over answers the real client read from a loopback server: a malformed or hostile body becomes
 * a failed assertion naming what was wrong, never a TypeError, whatever it nests.
 */
import { createServer } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { expectBody, readBody, shape } from "../../src/toolkit/readers.ts";
import { fakeCase } from "../helpers/fake-case.ts";
import { onLoopback, testClient } from "../helpers/loopback.ts";
import { bundledSpec } from "../helpers/reference.ts";

const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
const bodies: Record<string, [contentType: string, body: string]> = {
  "/page": ["application/json", '{"data":[{"id":"a"},{"id":"b"}],"page":1,"pages":1,"results":2}'],
  "/malformed": ["application/json", '{"data": [1, 2'],
  "/deep": ["application/json", deep],
  "/deep-object": ["application/json", `{"data":${deep}}`],
  "/mislabelled": ["text/html", "<html>a page</html>"],
  "/empty": ["application/json", ""],
  "/no-pages": ["application/json", '{"data":[],"page":1,"results":0}'],
  "/wrong-item": ["application/json", '{"data":[{"id":"a"},{"id":7}],"page":1,"pages":1,"results":2}'],
  "/an-array": ["application/json", "[1,2,3]"],
};

const server = createServer((request, response) => {
  const [type, body] = bodies[request.url ?? ""] ?? ["text/plain", "no such answer"];
  response.writeHead(200, { "content-type": type }).end(body);
});
const originOf = onLoopback(server);

const http = testClient({ maxResponseBytes: 4 * 1024 * 1024 });
afterAll(() => http.close());

const page = shape.object({
  data: shape.array(shape.object({ id: shape.string })),
  page: shape.integer,
  pages: shape.integer,
  results: shape.integer,
});

describe("readBody", () => {
  it.each([
    ["/malformed", /^the body is not JSON \(.+\)$/],
    ["/deep", /^the body nests deeper than 256 levels$/],
    ["/deep-object", /^the body nests deeper than 256 levels$/],
    ["/mislabelled", /^the body is labelled text\/html, not JSON$/],
    ["/empty", /^the answer has no body$/],
    ["/no-pages", /^pages is missing$/],
    ["/wrong-item", /^data\[1\]\.id is a number, not a string$/],
    ["/an-array", /^body is an array, not an object$/],
  ])("%s: names what is wrong", async (path, problem) => {
    const response = await http.send({ method: "GET", url: `${originOf()}${path}` });
    const read = readBody(response, page);
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.problem).toMatch(problem);
  });

  it("answers the body typed when it fits", async () => {
    const response = await http.send({ method: "GET", url: `${originOf()}/page` });
    const read = readBody(response, page);
    expect(read).toEqual({
      ok: true,
      value: { data: [{ id: "a" }, { id: "b" }], page: 1, pages: 1, results: 2 },
    });
  });
});

describe("expectBody", () => {
  it("fails the assertion it names, saying what was wrong, and answers undefined", async () => {
    const fake = fakeCase(await bundledSpec());
    const response = await http.send({ method: "GET", url: `${originOf()}/malformed` });
    expect(expectBody(fake.t, "/regions page 1 is a page of the list", response, page)).toBeUndefined();
    expect(fake.expectations).toHaveLength(1);
    expect(fake.expectations[0]).toMatchObject({
      name: "/regions page 1 is a page of the list",
      ok: false,
      details: { expected: "a JSON body: an object", actual: expect.stringMatching(/^the body is not JSON/) },
    });
  });

  it("asserts nothing when the body fits: the suite asserts what it judges in it", async () => {
    const fake = fakeCase(await bundledSpec());
    const response = await http.send({ method: "GET", url: `${originOf()}/page` });
    expect(expectBody(fake.t, "a page", response, page)?.pages).toBe(1);
    expect(fake.expectations).toEqual([]);
  });
});
