/**
 * The redaction guard: the engine redacts exchanges before any event; reporters must add nothing secret of their own
 * (no environment dump, no token, no config). Secrets are placed where a careless reporter could find them (the
 * environment), never in the events; no report file and no console output may then contain them.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReporters, reporterNames } from "../../src/reporters/index.ts";
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { secretMarkers } from "../fixtures/events/build.ts";
import { crashedRun, interruptedRun } from "../fixtures/events/interrupted.ts";
import { failingRun } from "../fixtures/events/with-failures.ts";
import { Capture, reportDir } from "./helpers.ts";

const planted = {
  CONFORM_TOKEN: secretMarkers[1],
  CONFORM_CLIENT_SECRET: secretMarkers[0],
  LINODE_TOKEN: secretMarkers[1],
} as const;

describe("redaction guard", () => {
  const saved = new Map<string, string | undefined>();

  beforeEach(() => {
    for (const [name, value] of Object.entries(planted)) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  });

  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it.each([
    ["all green", allGreenRun],
    ["with failures", failingRun],
    ["interrupted", interruptedRun],
    ["crashed", crashedRun],
  ])("no report and no console line carries a secret the events did not (%s)", async (_name, events) => {
    const stream = events();
    const serialised = JSON.stringify(stream);
    for (const marker of secretMarkers) expect(serialised).not.toContain(marker);

    const base = await reportDir();
    const capture = new Capture();
    const group = createReporters([...reporterNames], {
      outputDir: join(base, "run"),
      stream: capture,
      isTTY: true,
      ci: false,
    });
    for (const event of stream) await group.emit(event);
    await group.close();

    const outputs = new Map<string, string>([["console", capture.text]]);
    for (const dir of ["run", "latest"]) {
      for (const file of await readdir(join(base, dir)))
        outputs.set(`${dir}/${file}`, await readFile(join(base, dir, file), "utf8"));
    }
    // The console (github's annotations there too) and five files, in the run's directory and in latest.
    expect(outputs.size).toBe(11);
    for (const [where, text] of outputs) {
      for (const marker of secretMarkers) expect(text, `${marker} in ${where}`).not.toContain(marker);
      // A reporter that dumped the environment would show these.
      expect(text, `environment in ${where}`).not.toContain("CONFORM_CLIENT_SECRET");
      if (process.env.PATH) expect(text, `PATH in ${where}`).not.toContain(process.env.PATH);
      // Bearer tokens appear only as the engine's placeholder or the curl line's variable.
      for (const match of text.matchAll(/bearer\s+([^\s"'<&]+)/gi)) {
        expect(["[REDACTED]", "$CONFORM_TOKEN"], `bearer value in ${where}`).toContain(match[1]);
      }
    }
  });
});
