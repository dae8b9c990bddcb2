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
const balancerConfig = context({ spec, operation: spec.operations.byId("getNodeBalancerConfig") });
const config = {
  id: 4,
  port: 443,
  protocol: "https",
  algorithm: "roundrobin",
  stickiness: "none",
  check: "none",
  check_interval: 5,
  check_timeout: 3,
  check_attempts: 2,
  check_path: "",
  check_body: "",
  check_passive: true,
  proxy_protocol: "none",
  cipher_suite: "recommended",
  nodebalancer_id: 1,
  ssl_commonname: "example.test",
  ssl_fingerprint: "AA:BB",
  ssl_cert: "<REDACTED>",
  ssl_key: "<REDACTED>",
  nodes_status: { up: 0, down: 0 },
};
const configPath = "https://api.example.test/v4/nodebalancers/1/configs/4";
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
    {
      name: "ssl_key in the description's redacted form passes",
      context: balancerConfig,
      exchange: exchange({ path: configPath, json: config }),
      outcome: { status: "passed" },
    },
    {
      name: "ssl_key null passes",
      context: balancerConfig,
      exchange: exchange({ path: configPath, json: { ...config, ssl_key: null, ssl_cert: null } }),
      outcome: { status: "passed" },
    },
    {
      name: "a real ssl_key echoed back (redacted by the recorder) fails, naming the field, its value withheld",
      context: balancerConfig,
      exchange: exchange({ path: configPath, json: { ...config, ssl_key: redactedPlaceholder } }),
      outcome: {
        status: "failed",
        actual: [
          '/ssl_key: a secret echoed back where the description allows only "<REDACTED>" or null (its value is withheld)',
        ],
      },
    },
  ]);
});
