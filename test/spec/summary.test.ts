import { describe, expect, it } from "vitest";
import { formatProblems, loadSpec, summarizeSpec } from "../../src/spec/index.ts";
import { fixture, minimalDocument, writeSpec } from "./helpers.ts";

describe("summarizeSpec", () => {
  it("sums up a description: areas, lists and their filters, public operations, scopes, deprecations, formats", async () => {
    const spec = await loadSpec(fixture("mini-cloud-3.0.yaml"));
    expect(summarizeSpec(spec).replace(spec.source, "<source>")).toBe(
      [
        "Mini Cloud 1.2.3 (OpenAPI 3.0) from <source>",
        "9 operations in 3 areas:",
        "  compute          7  (1 deprecated)",
        "  nodebalancers    1",
        "  oauth            1",
        "Paginated lists (2):",
        "  GET /compute/types (listTypes): filterable: class (string), vcpus (integer), memory (number), tags (array of string), successor (string, nullable) [x-compute-filterable, x-vendor-filterable]",
        "  GET /compute/instances/ (listInstances): filterable: id (integer), label (string) [x-compute-filterable]",
        "Resources (4):",
        "  /nodebalancers: create",
        "  /compute/types: list, read",
        "  /compute/instances: list, create, read; actions post /compute/instances/{computeId}/boot; id in the create's answer: id (schema)",
        "  /compute/instances/summary (singleton): read",
        "Public operations (3): GET /compute/types (listTypes), GET /compute/types/{typeId} (getType), POST /oauth/token (createToken)",
        "Scopes (3): computes:read_only, computes:read_write, nodebalancers:read_write",
        "Deprecated operations (1): POST /compute/instances/{computeId}/boot",
        "On another server than the API's (1): their own server is neither one of the API's (https://{host}/v4) nor under one, so runs never send them to --base-url (a suite that needs one sends it to --auth-url)",
        "  POST /oauth/token (createToken) on {auth_url}",
        "Unknown formats, tolerated and not checked (1): flavour-id",
        "",
      ].join("\n"),
    );
  });

  it("uses the first tag as the area of a path that starts with a parameter, and omits empty sections' lists", async () => {
    const document = minimalDocument("3.1.0") as { paths: Record<string, unknown> };
    document.paths = {
      "/{tenant}/things": {
        get: {
          operationId: "listTenantThings",
          tags: ["Tenancy"],
          parameters: [{ name: "tenant", in: "path", required: true, schema: { type: "string" } }],
          responses: { "204": { description: "none" } },
        },
      },
    };
    const text = summarizeSpec(await loadSpec(writeSpec(document)));
    expect(text).toContain("1 operation in 1 area:\n  Tenancy    1\n");
    expect(text).toContain("Paginated lists (0):\n");
    expect(text).toContain("Scopes (0)\n");
    expect(text).not.toContain("Unknown formats");
  });
});

describe("formatProblems", () => {
  it("one line per problem with its pointer, the root as /, and a cut-off", () => {
    const problems = [
      { pointer: "/paths/~1a/get", message: "must have required property 'responses'" },
      { pointer: "", message: "must have an `openapi` (3.x) or `swagger` (2.0) version field" },
      { pointer: "/info", message: "third" },
    ];
    expect(formatProblems(problems, 2)).toBe(
      [
        "  at /paths/~1a/get: must have required property 'responses'",
        "  at /: must have an `openapi` (3.x) or `swagger` (2.0) version field",
        "  ... and 1 more",
        "",
      ].join("\n"),
    );
  });
});
