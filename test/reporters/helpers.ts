/** Shared by the reporters' tests: feed an event stream to a reporter, capture console output, temporary dirs. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import { deliver } from "../../src/reporters/index.ts";
import type { Reporter, ReporterOptions } from "../../src/reporters/types.ts";

/** Collects what a reporter writes to its stream. */
export class Capture extends Writable {
  text = "";
  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    this.text += chunk.toString();
    done();
  }
}

/** Delivers every event in order (awaiting async hooks), then closes the reporter. */
export async function feed(reporter: Reporter, events: readonly RunEvent[]): Promise<void> {
  for (const event of events) await deliver(reporter, event);
  await reporter.close?.();
}

const made: string[] = [];

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh `<reportDir>` (removed after the test). */
export async function reportDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "conform-reporters-"));
  made.push(dir);
  return dir;
}

/** Options for a run directory `<reportDir>/<runId>` and a captured, non-TTY console. */
export async function fileOptions(
  runId = "run",
): Promise<ReporterOptions & { capture: Capture; reportDir: string }> {
  const base = await reportDir();
  const capture = new Capture();
  return { outputDir: join(base, runId), stream: capture, isTTY: false, ci: true, capture, reportDir: base };
}
