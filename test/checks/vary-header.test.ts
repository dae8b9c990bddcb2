import { describe, expect } from "vitest";
import { varyHeader } from "../../src/checks/vary-header.ts";
import { anotherApi, regionsNotFound, runSequenceCases, seen } from "../helpers/observed.ts";

const regions = (headers: Record<string, string>) =>
  seen({ operationId: "getRegions", path: "/regions", headers, json: {} });

describe("vary-header", () => {
  runSequenceCases(varyHeader, [
    {
      name: "Vary naming both passes",
      sequence: [regions({ vary: "Authorization, X-Filter" })],
      outcome: { status: "passed" },
    },
    { name: "Vary: * passes", sequence: [regions({ vary: "*" })], outcome: { status: "passed" } },
    {
      name: "no Vary fails",
      sequence: [regions({})],
      outcome: { status: "failed", message: "Vary is missing" },
    },
    {
      name: "no Vary on another API's description is skipped, saying why",
      sequence: [regions({})],
      spec: anotherApi(),
      outcome: { status: "skipped", reason: expect.stringContaining("another API's") },
    },
    {
      name: "Vary without X-Filter fails",
      sequence: [regions({ vary: "Authorization, Accept-Encoding" })],
      outcome: { status: "failed", message: "Vary lacks x-filter" },
    },
    {
      name: "an error answer without Vary is not judged (the real service's carry none)",
      sequence: [regionsNotFound()],
      outcome: undefined,
    },
    {
      name: "a recording that kept Vary on none of its answers is skipped",
      sequence: [regions({})],
      recording: { headersKept: new Set(["content-type"]) },
      outcome: { status: "skipped" },
    },
    {
      name: "an answer of the login server is not its business",
      sequence: [seen({ operationId: "createOAuthToken", method: "POST", path: "/oauth/token", json: {} })],
      outcome: undefined,
    },
  ]);
});
