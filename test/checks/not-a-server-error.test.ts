import { describe, expect, it } from "vitest";
import { firstErrorReason } from "../../src/checks/_internals/spec-lookup.ts";
import { notAServerError } from "../../src/checks/not-a-server-error.ts";
import { exchange, runCheckCases } from "../helpers/exchanges.ts";

describe("not-a-server-error", () => {
  runCheckCases(notAServerError, [
    { name: "200 passes", exchange: exchange({ json: { data: [] } }), outcome: { status: "passed" } },
    {
      name: "404 passes (a client error)",
      exchange: exchange({ status: 404, json: { errors: [{ reason: "Not found" }] } }),
      outcome: { status: "passed" },
    },
    { name: "499 passes", exchange: exchange({ status: 499 }), outcome: { status: "passed" } },
    {
      name: "500 fails, naming the reason",
      exchange: exchange({ status: 500, json: { errors: [{ reason: "Please try again" }] } }),
      outcome: {
        status: "failed",
        message: "server error 500: Please try again",
        expected: "< 500",
        actual: 500,
      },
    },
    {
      name: "502 without a body fails",
      exchange: exchange({ status: 502, text: "" }),
      outcome: { status: "failed", message: "server error 502", actual: 502 },
    },
  ]);

  it.each([
    [{ errors: [{ reason: "Please try again" }] }, undefined, "Please try again"],
    [{ errors: [{ reason: "" }, { reason: "second" }] }, undefined, undefined],
    [{ errors: [null] }, undefined, undefined],
    [{ problems: [{ message: "Busy" }] }, { list: "problems", reason: "message", field: "pointer" }, "Busy"],
    [{ errors: [{ reason: "Busy" }] }, { list: "problems", reason: "message", field: "pointer" }, undefined],
  ])("the first error's reason of %j, in the envelope's names", (body, envelope, reason) => {
    expect(firstErrorReason(body, envelope)).toBe(reason);
  });
});
