import { describe } from "vitest";
import { hstsHeader } from "../../src/checks/hsts-header.ts";
import { regionsNotFound, runSequenceCases, seen } from "../helpers/observed.ts";

const regions = (headers: Record<string, string>, https = true) =>
  seen({ operationId: "getRegions", path: "/regions", headers, json: {}, https });

describe("hsts-header", () => {
  runSequenceCases(hstsHeader, [
    {
      name: "a positive max-age over HTTPS passes",
      sequence: [regions({ "strict-transport-security": "max-age=31536000; includeSubDomains" })],
      outcome: { status: "passed" },
    },
    {
      name: "no header over HTTPS fails",
      sequence: [regions({})],
      outcome: { status: "failed", message: "Strict-Transport-Security is missing" },
    },
    {
      name: "max-age=0 over HTTPS fails",
      sequence: [regions({ "strict-transport-security": "max-age=0" })],
      outcome: { status: "failed", message: "Strict-Transport-Security has no positive max-age" },
    },
    {
      name: "an error answer without it is not judged (the real service's 404s mostly carry none)",
      sequence: [regionsNotFound()],
      outcome: undefined,
    },
    { name: "plain HTTP is not its business", sequence: [regions({}, false)], outcome: undefined },
    {
      name: "a recording that kept it on none of its answers is skipped",
      sequence: [regions({})],
      recording: { headersKept: new Set(["content-type"]) },
      outcome: { status: "skipped" },
    },
  ]);
});
