/**
 * The body suites on a description that is not ours, against a tiny target started here (node:http on loopback):
 * widgets made in a zone. Nothing of the bundled catalogue is there, so the domain fixtures are not made and the
 * cases needing them skip saying why. One widget is made in their stead, so the writes get valid and invalid
 * bodies, its update included; the widget's `zone` is taken from the description's list of zones (a usable one:
 * not in outage), never drawn from its schema.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

const zones = [
  { id: "z-down", status: "outage" },
  { id: "z-1", status: "ok" },
];

const errorList = {
  type: "object",
  required: ["errors"],
  properties: {
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["reason"],
        properties: { reason: { type: "string" }, field: { type: "string" } },
      },
    },
  },
};
const refused = {
  description: "Refused",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } },
};
const widget = { $ref: "#/components/schemas/Widget" };
const json = (schema: unknown) => ({ "application/json": { schema } });
const widgetId = { name: "widgetId", in: "path", required: true, schema: { type: "integer" } };

/** What a widget's create and update take (the create requires `zone` and `name`). */
const widgetFields = {
  zone: { type: "string", minLength: 1 },
  name: { type: "string", minLength: 1, maxLength: 32 },
  size: { type: "integer", minimum: 1, maximum: 10 },
};

const description = {
  openapi: "3.1.0",
  info: { title: "Widgets", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1/v1" }],
  security: [{ token: [] }],
  paths: {
    "/zones": {
      get: {
        operationId: "listZones",
        security: [],
        responses: {
          "200": {
            description: "The zones",
            content: json({
              type: "object",
              required: ["data", "page", "pages", "results"],
              properties: {
                data: { type: "array", items: { $ref: "#/components/schemas/Zone" } },
                page: { type: "integer" },
                pages: { type: "integer" },
                results: { type: "integer" },
              },
            }),
          },
        },
      },
    },
    "/widgets": {
      post: {
        operationId: "makeWidget",
        requestBody: { required: true, content: json({ $ref: "#/components/schemas/WidgetRequest" }) },
        responses: { "200": { description: "Made", content: json(widget) }, "400": refused },
      },
    },
    "/widgets/{widgetId}": {
      parameters: [widgetId],
      get: {
        operationId: "readWidget",
        responses: { "200": { description: "The widget", content: json(widget) }, "404": refused },
      },
      put: {
        operationId: "changeWidget",
        requestBody: { required: true, content: json({ $ref: "#/components/schemas/WidgetUpdate" }) },
        responses: {
          "200": { description: "Changed", content: json(widget) },
          "400": refused,
          "404": refused,
        },
      },
      delete: {
        operationId: "dropWidget",
        responses: { "200": { description: "Gone", content: json({ type: "object" }) }, "404": refused },
      },
    },
  },
  components: {
    securitySchemes: { token: { type: "http", scheme: "bearer" } },
    schemas: {
      Errors: errorList,
      Zone: {
        type: "object",
        required: ["id", "status"],
        properties: { id: { type: "string" }, status: { type: "string", enum: ["ok", "outage"] } },
      },
      WidgetRequest: { type: "object", required: ["zone", "name"], properties: widgetFields },
      WidgetUpdate: { type: "object", properties: widgetFields },
      Widget: {
        type: "object",
        required: ["id", "zone", "name"],
        properties: {
          id: { type: "integer", readOnly: true },
          zone: { type: "string" },
          name: { type: "string" },
          size: { type: "integer" },
        },
      },
    },
  },
};

type Problem = { reason: string; field?: string };

/**
 * What is wrong with a widget body, every field at once; a zone must be listed and not in outage. An update
 * (`partial`) may leave any field out.
 */
function problemsOf(body: unknown, partial = false): Problem[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [{ reason: "Not an object" }];
  const { zone, name, size } = body as Record<string, unknown>;
  const problems: Problem[] = [];
  if (partial && zone === undefined) {
    // Kept as it is.
  } else if (typeof zone !== "string" || zone === "")
    problems.push({ reason: "A zone is required", field: "zone" });
  else if (zone !== "z-1") problems.push({ reason: "No such zone, or in outage", field: "zone" });
  if (partial && name === undefined) {
    // Kept as it is.
  } else if (typeof name !== "string" || name.length < 1 || name.length > 32)
    problems.push({ reason: "A name of 1 to 32 characters is required", field: "name" });
  if (size !== undefined && !(Number.isInteger(size) && (size as number) >= 1 && (size as number) <= 10))
    problems.push({ reason: "Size must be 1 to 10", field: "size" });
  return problems;
}

const made = new Map<number, Record<string, unknown>>();
const sentZones: unknown[] = [];
let updates = 0;
let nextId = 1;

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
  if (request.method === "GET" && path === "/v1/zones")
    return reply(response, 200, { data: zones, page: 1, pages: 1, results: zones.length });
  if (!request.headers.authorization) return reply(response, 401, { errors: [{ reason: "Invalid Token" }] });
  const id = Number(/^\/v1\/widgets\/(\d+)$/.exec(path)?.[1]);
  const item = made.get(id);
  const writes = request.method === "POST" ? path === "/v1/widgets" : request.method === "PUT" && item;
  if (writes) {
    if (!(request.headers["content-type"] ?? "").startsWith("application/json"))
      return reply(response, 400, { errors: [{ reason: "Send JSON" }] });
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return reply(response, 400, { errors: [{ reason: "Malformed JSON" }] });
    }
    const problems = problemsOf(body, request.method === "PUT");
    if (problems.length > 0) return reply(response, 400, { errors: problems });
    const sent = body as Record<string, unknown>;
    if (sent.zone !== undefined) sentZones.push(sent.zone);
    if (item) {
      updates += 1;
      Object.assign(item, sent);
      return reply(response, 200, item);
    }
    const created = { id: nextId++, ...sent };
    made.set(created.id, created);
    return reply(response, 200, created);
  }
  if (!item) return reply(response, 404, { errors: [{ reason: "Not found" }] });
  if (request.method === "GET") return reply(response, 200, item);
  if (request.method === "DELETE") {
    made.delete(id);
    return reply(response, 200, {});
  }
  return reply(response, 405, { errors: [{ reason: "Method not allowed" }] });
}

const server = createServer((request, response) => {
  handle(request, response).catch(() => reply(response, 500, { errors: [{ reason: "Broken" }] }));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
const specPath = join(mkdtempSync(join(tmpdir(), "conform-widgets-")), "widgets.json");
writeFileSync(specPath, JSON.stringify(description));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("body suites on a description that is not ours", () => {
  it("exercise its writes with the zone its list offers; what needs the bundled fixtures skips saying why", async () => {
    const run = await runSuites({
      specPath,
      baseUrl,
      token: "stub-token",
      allowWrites: true,
      suites: ["valid-bodies", "invalid-bodies"],
      checks: ["not-a-server-error"],
    });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const verdicts = Object.fromEntries(
      run.events.flatMap((event) =>
        event.type === "case-finished"
          ? [[`${event.suiteId}/${event.caseId}`, `${event.status} ${event.skipReason ?? ""}`.trim()]]
          : [],
      ),
    );
    const lacking =
      "the description has no operation createNodeBalancer (nor 11 more of those the fixtures are made with)";
    expect(verdicts).toMatchObject({
      "valid-bodies/fixtures": `skipped ${lacking}: the resources the bodies write against are not made; 1 made from the description instead (see the log)`,
      "valid-bodies/accepted-and-read-back": "passed",
      "invalid-bodies/one-rule": "passed",
      "invalid-bodies/several-rules": "passed",
      "invalid-bodies/malformed-json": "passed",
      "invalid-bodies/wrong-content-type": "passed",
      "invalid-bodies/https-without-key": expect.stringContaining(
        `skipped the fixtures hold no load balancer: ${lacking}`,
      ),
      "invalid-bodies/weak-root-pass": expect.stringContaining(
        `skipped the fixtures hold no region: ${lacking}`,
      ),
    });
    // The widget the fixtures case made stands in for ours: its update gets valid and invalid bodies too.
    expect(updates).toBeGreaterThan(0);
    expect(sentZones.length).toBeGreaterThan(0);
    expect(new Set(sentZones)).toEqual(new Set(["z-1"]));
    expect(run.finished.cleanup.failed).toEqual([]);
    expect(made.size).toBe(0);
  });
});
