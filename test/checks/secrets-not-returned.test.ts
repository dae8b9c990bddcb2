import { describe } from "vitest";
import { secretsNotReturned } from "../../src/checks/secrets-not-returned.ts";
import { runSequenceCases, seen } from "../helpers/observed.ts";

// What the recorder leaves of a value sent in full under a secret key.
const ours = "[REDACTED]";
const client = (secret: unknown) => ({ id: "0123456789abcdef0123", label: "app", secret });
const profile = (sslKey: unknown) => ({ id: 7, port: 443, protocol: "https", ssl_key: sslKey });

describe("secrets-not-returned", () => {
  runSequenceCases(secretsNotReturned, [
    {
      name: "a profile's ssl_key as <REDACTED> passes",
      sequence: [
        seen({
          operationId: "getNodeBalancerConfig",
          path: "/nodebalancers/1/configs/7",
          json: profile("<REDACTED>"),
        }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "a profile's ssl_key as null passes",
      sequence: [
        seen({
          operationId: "getNodeBalancerConfig",
          path: "/nodebalancers/1/configs/7",
          json: profile(null),
        }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "a profile's ssl_key in full fails",
      sequence: [
        seen({
          operationId: "getNodeBalancerConfig",
          path: "/nodebalancers/1/configs/7",
          json: profile(ours),
        }),
      ],
      outcome: { status: "failed", message: "getNodeBalancerConfig shows ssl_key in full" },
    },
    {
      name: "an ssl_key in full on a list's item fails",
      sequence: [
        seen({
          operationId: "getNodeBalancerConfigs",
          path: "/nodebalancers/1/configs",
          json: { data: [profile(null), profile(ours)], page: 1, pages: 1, results: 2 },
        }),
      ],
      outcome: { status: "failed" },
    },
    {
      name: "an instance's create answer with root_pass fails",
      sequence: [
        seen({
          operationId: "createComputeInstance",
          method: "POST",
          path: "/compute/instances",
          json: { id: 1, root_pass: ours },
        }),
      ],
      outcome: { status: "failed", message: "createComputeInstance shows root_pass in full" },
    },
    {
      name: "a client's secret in full on its creation passes",
      sequence: [
        seen({
          operationId: "createOAuthClient",
          method: "POST",
          path: "/account/oauth-clients",
          json: client(ours),
        }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "a client's secret as <REDACTED> on a read passes",
      sequence: [
        seen({ operationId: "getOAuthClient", path: "/account/oauth-clients/x", json: client("<REDACTED>") }),
      ],
      outcome: { status: "passed" },
    },
    {
      name: "a client's secret in full on a read fails",
      sequence: [
        seen({ operationId: "getOAuthClient", path: "/account/oauth-clients/x", json: client(ours) }),
      ],
      outcome: { status: "failed", message: "getOAuthClient shows secret in full" },
    },
    {
      name: "a client's secret in full on an update fails",
      sequence: [
        seen({
          operationId: "updateOAuthClient",
          method: "PUT",
          path: "/account/oauth-clients/x",
          json: client(ours),
        }),
      ],
      outcome: { status: "failed" },
    },
    {
      name: "an error answer is not its business",
      sequence: [
        seen({
          operationId: "getOAuthClient",
          path: "/account/oauth-clients/x",
          status: 404,
          json: { errors: [{ reason: "Not found" }] },
        }),
      ],
      outcome: undefined,
    },
  ]);
});
