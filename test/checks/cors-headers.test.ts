import { describe, expect } from "vitest";
import { corsHeaders } from "../../src/checks/cors-headers.ts";
import { anotherApi, runSequenceCases, seen } from "../helpers/observed.ts";

const cors = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "HEAD, GET, OPTIONS, POST, PUT, DELETE",
  "access-control-allow-headers": "Authorization, Origin, X-Requested-With, Content-Type, Accept, X-Filter",
  "access-control-expose-headers": "X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Status",
};
const regions = (headers: Record<string, string>, method = "GET") =>
  seen({ operationId: "getRegions", path: "/regions", method, headers, json: {} });
const without = (name: keyof typeof cors) =>
  Object.fromEntries(Object.entries(cors).filter(([key]) => key !== name));

describe("cors-headers", () => {
  runSequenceCases(corsHeaders, [
    { name: "the described CORS headers pass", sequence: [regions(cors)], outcome: { status: "passed" } },
    {
      name: "another API's description is not held to this API's lists (a mock of it sends none)",
      sequence: [regions({ "access-control-allow-origin": "*" })],
      spec: anotherApi(),
      outcome: { status: "skipped", reason: expect.stringContaining("another API's") },
    },
    {
      name: "wildcard lists pass",
      sequence: [
        regions({
          ...cors,
          "access-control-allow-methods": "*",
          "access-control-allow-headers": "*",
          "access-control-expose-headers": "*",
        }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "no Access-Control-Allow-Origin fails",
      sequence: [regions(without("access-control-allow-origin"))],
      outcome: { status: "failed", message: "Access-Control-Allow-Origin is missing" },
    },
    {
      name: "Allow-Headers without X-Filter fails",
      sequence: [
        regions({
          ...cors,
          "access-control-allow-headers": "Authorization, Content-Type, Origin, Accept, X-Requested-With",
        }),
      ],
      outcome: { status: "failed", message: "access-control-allow-headers lacks x-filter" },
    },
    {
      name: "no Expose-Headers fails",
      sequence: [regions(without("access-control-expose-headers"))],
      outcome: { status: "failed", message: "access-control-expose-headers is missing" },
    },
    {
      name: "an error answer without Expose-Headers passes (the real service's 400s leave it off)",
      sequence: [
        seen({
          operationId: "getRegions",
          path: "/regions",
          status: 400,
          headers: without("access-control-expose-headers"),
          json: { errors: [{ reason: "x" }] },
        }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "an error answer without Allow-Origin fails",
      sequence: [
        seen({
          operationId: "getRegions",
          path: "/regions",
          status: 400,
          headers: without("access-control-allow-origin"),
          json: { errors: [{ reason: "x" }] },
        }),
      ],
      outcome: { status: "failed" },
    },
    {
      name: "a recording that kept no CORS header is skipped",
      sequence: [regions({})],
      recording: { headersKept: new Set(["content-type"]) },
      outcome: { status: "skipped" },
    },
    {
      name: "an answer of no operation is not its business",
      sequence: [{ ...regions({}), operationId: undefined }],
      outcome: undefined,
    },
  ]);
});
