/**
 * Regression: the recorder replaces secrets with a placeholder before checks see a body, so a token response
 * (`access_token` must be 64 hex characters) failed body-matches-schema on every clean target. An issue about the
 * placeholder is the recorder's; every other issue of the same body is still the target's.
 */
import { describe } from "vitest";
import { bodyMatchesSchema } from "../../src/checks/body-matches-schema.ts";
import { redactedPlaceholder } from "../../src/core/redact.ts";
import { context, exchange, runCheckCases } from "../helpers/exchanges.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
const tokenEndpoint = context({ spec, operation: spec.operations.byId("createOAuthToken") });
const tokens = {
  scope: "account:read_only",
  access_token: redactedPlaceholder,
  refresh_token: redactedPlaceholder,
  token_type: "bearer",
  expires_in: 7200,
};

describe("body-matches-schema on redacted bodies", () => {
  runCheckCases(bodyMatchesSchema, [
    {
      name: "secrets redacted by the recorder do not fail the schema",
      context: tokenEndpoint,
      exchange: exchange({ path: "https://api.example.test/oauth/token", method: "POST", json: tokens }),
      outcome: { status: "passed" },
    },
    {
      name: "the body's other issues still fail it",
      context: tokenEndpoint,
      exchange: exchange({
        path: "https://api.example.test/oauth/token",
        method: "POST",
        json: { ...tokens, token_type: "mac" },
      }),
      outcome: { status: "failed", actual: ["/token_type: must be equal to one of the allowed values"] },
    },
    {
      name: "a secret that is not redacted is still judged",
      context: tokenEndpoint,
      exchange: exchange({
        path: "https://api.example.test/oauth/token",
        method: "POST",
        json: { ...tokens, access_token: "short" },
      }),
      outcome: { status: "failed" },
    },
  ]);
});
