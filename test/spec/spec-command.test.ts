import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { fixture, minimalDocument, writeSpec } from "./helpers.ts";

describe("conform spec [file]", () => {
  let stdout: MockInstance<typeof process.stdout.write>;
  let stderr: MockInstance<typeof process.stderr.write>;
  const written = (spy: MockInstance<typeof process.stdout.write>) =>
    spy.mock.calls.map(([chunk]) => String(chunk)).join("");

  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => vi.restoreAllMocks());

  it.each([fixture("mini-cloud-3.0.yaml"), fixture("mini-cloud-3.1.yaml"), fixture("mini-cloud-2.0.json")])(
    "summarises a valid description and exits 0: %s",
    async (file) => {
      expect(await main(["spec", file])).toBe(0);
      const out = written(stdout);
      expect(out).toContain("Mini Cloud 1.2.3");
      expect(out).toContain("9 operations in 3 areas:");
      expect(out).toContain("GET /compute/types (listTypes): filterable: class (string)");
      expect(out).toContain("Unknown formats, tolerated and not checked (1): flavour-id");
      expect(written(stderr)).toBe("");
    },
  );

  it("reads the bundled description when no file is given", async () => {
    expect(await main(["spec"])).toBe(0);
    expect(written(stdout)).toContain("Cloud Infrastructure API");
    expect(written(stderr)).toBe("");
  });

  it("exits 2 on an invalid description and lists every problem with its pointer", async () => {
    const document = minimalDocument() as { info: Record<string, unknown>; paths: Record<string, unknown> };
    delete document.info.version;
    document.paths["/broken"] = {
      get: {
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/nowhere" } } } },
        },
      },
    };
    const file = writeSpec(document);
    expect(await main(["spec", file])).toBe(2);
    const err = written(stderr);
    expect(err).toContain(`invalid API description ${file}`);
    expect(err).toContain("[SPEC_INVALID]");
    expect(err).toContain("at /info: must have required property 'version'");
    expect(err).toContain(
      'at /paths/~1broken/get/responses/200/content/application~1json/schema: $ref "#/nowhere" does not resolve',
    );
    expect(written(stdout)).toBe("");
  });

  it("--no-validate summarises what validation would refuse", async () => {
    const document = minimalDocument() as { info: Record<string, unknown> };
    delete document.info.version;
    expect(await main(["spec", "--no-validate", writeSpec(document)])).toBe(0);
    expect(written(stdout)).toContain("1 operation in 1 area:");
  });

  it.each([
    ["a missing file", "/nonexistent/api.yaml", "[SPEC_LOAD]"],
    ["an unsupported version", "openapi-4", "[SPEC_UNSUPPORTED]"],
  ])("exits 2 on %s, naming the cause", async (_name, file, code) => {
    const path = file === "openapi-4" ? writeSpec({ ...minimalDocument(), openapi: "4.0.0" }) : file;
    expect(await main(["spec", path])).toBe(2);
    expect(written(stderr)).toContain(code);
  });
});
