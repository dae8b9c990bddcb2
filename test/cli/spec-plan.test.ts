import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { fixture } from "../spec/helpers.ts";

describe("conform spec --plan", () => {
  let stdout: MockInstance<typeof process.stdout.write>;
  let stderr: MockInstance<typeof process.stderr.write>;
  const written = (spy: MockInstance<typeof process.stdout.write>) =>
    spy.mock.calls.map(([chunk]) => String(chunk)).join("");
  /** The plan's row of an operation, by its id. */
  const row = (out: string, operationId: string) =>
    out.split("\n").find((line) => /^ {2}[✓-] /.test(line) && line.includes(`  ${operationId}  `));

  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => vi.restoreAllMocks());

  it("on the bundled description: every API operation requested, the login server's set aside", async () => {
    expect(await main(["spec", "--plan"])).toBe(0);
    const out = written(stdout);
    expect(out).toContain("Coverage plan (no request sent): writes not allowed");
    expect(row(out, "getRegions")).toMatch(/ {2}✓ GET \/regions +getRegions {2}requested$/);
    expect(row(out, "createOAuthToken")).toMatch(
      / {2}- POST \/oauth\/token .*not requested: another server's: its own server/,
    );
    expect(out.trimEnd().split("\n").at(-1)).toBe(
      "45 of 48 operations would be requested by the generic layer; 3 would not (3 another server's)",
    );
    expect(written(stderr)).toBe("");
  });

  it("takes the description as --spec too, as conform run names it", async () => {
    expect(await main(["spec", "--spec", fixture("mini-cloud-3.0.yaml"), "--plan"])).toBe(0);
    expect(written(stdout)).toMatch(/^Mini Cloud 1\.2\.3 \(OpenAPI 3\.0\) from /);
    expect(written(stderr)).toBe("");
  });

  it("on a description with another server's operation, with the selection options of a run", async () => {
    const file = fixture("mini-cloud-3.0.yaml");
    expect(await main(["spec", file, "--plan", "--exclude-operation", "listTypes", "--allow-writes"])).toBe(
      0,
    );
    const out = written(stdout);
    expect(out).toContain("writes allowed");
    expect(row(out, "createToken")).toContain(
      "not requested: another server's: its own server {auth_url} is not the API's: set aside (only a suite that needs it sends it, to --auth-url)",
    );
    expect(row(out, "listTypes")).toContain(
      "not requested: deselected: the selection leaves it out (--exclude-operation)",
    );
    expect(row(out, "createInstance")).toMatch(/requested$/);
    expect(out.trimEnd().split("\n").at(-1)).toBe(
      "7 of 9 operations would be requested by the generic layer; 2 would not (1 deselected, 1 another server's)",
    );
  });

  it("says the generic layer would not run when the selection leaves its suite out", async () => {
    expect(await main(["spec", "--plan", "--exclude-tag", "generic"])).toBe(0);
    const out = written(stdout);
    expect(out).toContain("the generic layer would not run: no suite tagged `generic` is selected");
    expect(row(out, "getRegions")).toContain("not requested: generic suite not selected");
  });

  it("refuses an unknown operation as a run does (exit 2, naming it)", async () => {
    expect(await main(["spec", "--plan", "--operation", "getRegionz"])).toBe(2);
    expect(written(stderr)).toContain("unknown operation getRegionz (--operation)");
  });

  it("prints no plan without --plan", async () => {
    expect(await main(["spec"])).toBe(0);
    expect(written(stdout)).not.toContain("Coverage plan");
  });
});
