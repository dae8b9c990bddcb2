/**
 * A whole writing run, every suite, against a target in front of a reference server this test started (a proxy at
 * `origin`), with the named reporters writing into a fresh folder and the console captured: what a user would see.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { RunEvent, RunFinished } from "../../src/core/events.ts";
import type { ReferenceServer } from "../../src/reference/server.ts";
import { createReporters } from "../../src/reporters/index.ts";
import { runConfigDefaults } from "../../src/runner/config.ts";
import { runConformance } from "../../src/runner/run.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

export interface FullRun {
  readonly finished: RunFinished;
  readonly events: readonly RunEvent[];
  readonly consoleText: string;
  readonly outputDir: string;
}

export async function fullRunThrough(
  reference: ReferenceServer,
  origin: string,
  runId: string,
  reporterNames: readonly string[],
): Promise<FullRun> {
  const outputDir = mkdtempSync(join(tmpdir(), "conform-full-run-"));
  let consoleText = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      consoleText += String(chunk);
      done();
    },
  });
  const reporters = createReporters(reporterNames, { outputDir, stream, isTTY: false, ci: true });
  const events: RunEvent[] = [];
  const finished = await runConformance(
    {
      ...runConfigDefaults,
      specPath: bundledSpecPath,
      seed: 1,
      baseUrl: `${origin}/v4`,
      authUrl: origin,
      token: reference.token,
      allowWrites: true,
      suiteOptions: { login: { username: reference.user.username, password: reference.user.password } },
    },
    {
      runId,
      listeners: [(event) => void events.push(event), (event) => reporters.emit(event)],
      signal: new AbortController().signal,
      toolVersion: "test",
    },
  );
  await reporters.close();
  return { finished, events, consoleText, outputDir };
}
