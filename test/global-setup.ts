/**
 * Before any test file starts:
 * - the temp directory of the whole run is a folder of its own (TMPDIR, inherited by the test workers and every
 *   process they start, conform's among them), removed when the run ends: what a test or a killed child leaves
 *   there does not pile up in the machine's temp directory. What was left is named at the end, so a leak stays seen.
 * - the browser the rule picks is made ready once (the npm Chromium unpacked into node_modules/.cache). Unpacked by
 *   the first browser test instead, under the load of every test file starting at once on a 2-core machine, it could
 *   outlast that test's timeout and be cut off half-way (`tar: Unexpected EOF`).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveChromium } from "./helpers/chromium.ts";

export default async function setup(): Promise<() => void> {
  const machineTemp = tmpdir();
  const runTemp = mkdtempSync(join(machineTemp, "conform-test-run-"));
  process.env.TMPDIR = runTemp;
  await resolveChromium();
  return () => {
    const left = readdirSync(runTemp);
    if (left.length > 0)
      process.stderr.write(
        `test run: ${left.length} entries left in the temp directory by the tests, removed: ${left.slice(0, 10).join(", ")}${left.length > 10 ? ", ..." : ""}\n`,
      );
    rmSync(runTemp, { recursive: true, force: true });
    process.env.TMPDIR = machineTemp;
  };
}
